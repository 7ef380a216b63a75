import { describe, expect, it, vi } from 'vitest'
import { EditBase, type Version, versionReader } from './edit-base.js'
import type { Item, ItemsClient } from './items-api.js'

const seen: Item = { _id: '6740a1f2c3d4e5f6a7b8c9d0', id: 'tt1', name: 'Heat', genre: 'Crime' }
const current: Version = { item: seen, etag: '"v1"' }

/** The page's reader over a client whose `read` is `read`. */
const readerOver = (read: ItemsClient['read']) => versionReader({ read } as ItemsClient)

/** A send that records what it was given and answers the list. */
function recordingSend() {
  return vi.fn(async (_id: string, _ifMatch: string | undefined) => [seen])
}

describe('EditBase', () => {
  it('sends the write with the ETag read when the edit opened', async () => {
    const send = recordingSend()
    const base = new EditBase(async () => current, seen)
    expect(await base.write(send, seen.id)).toEqual([seen])
    expect(send).toHaveBeenCalledWith('tt1', '"v1"')
  })

  it('reads once more when the first read failed, and sends with that tag', async () => {
    const read = vi
      .fn<ItemsClient['read']>()
      .mockRejectedValueOnce(new Error('fetch failed'))
      .mockResolvedValueOnce({ item: seen, etag: '"v1"' })
    const send = recordingSend()
    await new EditBase(readerOver(read), seen).write(send, seen.id)
    expect(read).toHaveBeenCalledTimes(2)
    expect(send).toHaveBeenCalledWith('tt1', '"v1"')
  })

  it('sends nothing when the version cannot be read: the write could overwrite a change', async () => {
    const send = recordingSend()
    const failing = readerOver(async () => Promise.reject(new Error('fetch failed')))
    const base = new EditBase(failing, seen)
    await expect(base.write(send, seen.id)).rejects.toThrow('fetch failed')
    expect(send).not.toHaveBeenCalled()
  })

  it('sends nothing for a movie gone meanwhile, or changed since the user saw it', async () => {
    const send = recordingSend()
    expect(await new EditBase(async () => ({ item: null }), seen).write(send, seen.id)).toEqual({
      now: 'gone',
    })
    const renamed = { ...seen, name: 'Heat (1995)' }
    const changed = new EditBase(async () => ({ item: renamed, etag: '"v2"' }), seen)
    expect(await changed.write(send, seen.id)).toEqual({ now: renamed })
    expect(send).not.toHaveBeenCalled()
  })
})
