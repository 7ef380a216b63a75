import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Item } from './items-api.js'
import { RemoteNotice } from './remote-notice.js'

const item = (n: number): Item => ({
  _id: `6740a1f2c3d4e5f6a7b8c9${String(n).padStart(2, '0')}`,
  id: `tt${n}`,
  name: `Movie ${n}`,
  genre: 'Drama',
})

describe('RemoteNotice', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('says the changes of others in one sentence once the feed is quiet', () => {
    const said: string[] = []
    const notice = new RemoteNotice((message) => said.push(message), 1000)
    notice.note({ type: 'created', item: item(1) }, 'added')
    vi.advanceTimersByTime(500)
    notice.note({ type: 'created', item: item(2) }, 'added')
    notice.note({ type: 'updated', item: item(3) }, 'changed')
    vi.advanceTimersByTime(999)
    expect(said).toEqual([])
    vi.advanceTimersByTime(1)
    expect(said).toEqual(['Changed elsewhere: 2 movies added, 1 updated'])
  })

  it("says nothing of this tab's own writes, even when their change comes before the answer", () => {
    const said: string[] = []
    const notice = new RemoteNotice((message) => said.push(message), 1000)
    const done = notice.expect([`updated:${item(1)._id}`])
    notice.note({ type: 'updated', item: item(1) }, 'changed')
    done()
    // The next change of the same movie is someone else's.
    notice.note({ type: 'updated', item: item(1) }, 'changed')
    vi.advanceTimersByTime(1000)
    expect(said).toEqual(['Changed elsewhere: 1 movie updated'])
  })

  it("says what others changed before this tab's write, never after what the write says", () => {
    const said: string[] = []
    const notice = new RemoteNotice((message) => said.push(message), 1000)
    notice.note({ type: 'created', item: item(1) }, 'added')
    const done = notice.expect([`created:${item(2).id}`])
    expect(said).toEqual(['Changed elsewhere: 1 movie added'])
    said.push('Added Movie 2')
    done()
    vi.advanceTimersByTime(5000)
    expect(said).toEqual(['Changed elsewhere: 1 movie added', 'Added Movie 2'])
  })

  it('says nothing of a change that changed nothing shown', () => {
    const said: string[] = []
    const notice = new RemoteNotice((message) => said.push(message), 1000)
    notice.note({ type: 'created', item: item(1) }, null)
    vi.advanceTimersByTime(5000)
    expect(said).toEqual([])
  })
})
