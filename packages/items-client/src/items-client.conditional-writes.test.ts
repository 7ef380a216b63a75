import { describe, expect, it } from 'vitest'
import { recordingFetch, refusal, stored } from '../test/support/request-fixtures.js'
import { ItemsApiError } from './items-api-error.js'
import { createItemsClient } from './items-client.js'

describe('read and conditional writes', () => {
  it('reads an item with its ETag', async () => {
    const etag = '"6740a1f2-9c1e07a4-2"'
    const { fetch } = recordingFetch(() => Response.json(stored, { headers: { etag } }))
    const items = createItemsClient('http://api.test', { fetch })
    await expect(items.read('tt0111161')).resolves.toEqual({ item: stored, etag })
  })

  it('refuses an answer without an ETag rather than give a tag that matches nothing', async () => {
    const { fetch } = recordingFetch(() => Response.json(stored))
    const error = await refusal(createItemsClient('http://api.test', { fetch }).read('tt0111161'))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({ status: 200, message: expect.stringContaining('no ETag') })
  })

  it('sends ifMatch as If-Match with updates and removes', async () => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test', { fetch })
    await items.update('tt0111161', { genre: 'Crime' }, { ifMatch: '"a-1"' })
    await items.remove('tt0111161', { ifMatch: '*' })
    await items.remove('tt0111161')
    expect(sent.map(({ headers }) => headers['if-match'])).toEqual(['"a-1"', '*', undefined])
  })

  it('rejects a stale tag’s 412 with an ItemsApiError', async () => {
    const stale = { error: "item 'tt0111161' does not match If-Match" }
    const { fetch } = recordingFetch(() => Response.json(stale, { status: 412 }))
    const items = createItemsClient('http://api.test', { fetch })
    const error = await refusal(items.update('tt0111161', { genre: 'Crime' }, { ifMatch: '"a"' }))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({ status: 412, body: stale, message: stale.error })
  })
})
