import { SortableIdSequence } from '@movies-and-mail/store-kit'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { MailLog, MailLogEntry, Stored } from '../../src/ports/mail-log.js'
import { describeMailLogOwnersContract } from './mail-log-owners.contract.js'

export type MailLogFixture = {
  log: MailLog<MailLogEntry>
  /** Opens the same store afresh, as a restarted process would; absent for memory-only stores. */
  reopen?: () => Promise<MailLog<MailLogEntry>>
  /** Why `prune` removes nothing, when the store expires records by itself. */
  expiresItself?: string
  cleanup: () => Promise<void>
}

/**
 * What the contract hands the adapter it opens: `ids`, a sequence of this test alone for the
 * log's new `_id`s, so a record inserted while the test sets the clock back has an id of that
 * time, as the record of a send that long ago has.
 */
export type MailLogSeams = { ids: SortableIdSequence }

const entry = (n: number): MailLogEntry => ({
  email: `reader${n}@example.com`,
  name: `Reader ${n}`,
  output: { id: `<20260101120000.${n}@mg.example.com>`, message: 'Queued. Thank you.' },
})

const names = (records: Stored<MailLogEntry>[]) => records.map((record) => record.name)
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000)
/** A past time on a whole second, as the seconds in an `_id` are. */
const secondsAgo = (seconds: number) => new Date((Math.floor(Date.now() / 1000) - seconds) * 1000)

/**
 * The behaviour every MailLog adapter must show, its owners' cases included
 * (`mail-log-owners.contract.ts`); each adapter's test file runs it.
 */
export function describeMailLogContract(
  adapter: string,
  open: (seams: MailLogSeams) => Promise<MailLogFixture>,
) {
  describe(`MailLog contract: ${adapter}`, () => {
    let fixture: MailLogFixture
    beforeEach(async () => {
      fixture = await open({ ids: new SortableIdSequence() })
    })
    afterEach(async () => {
      vi.useRealTimers()
      await fixture.cleanup()
    })

    /** Inserts records as if sent at `time`: the clock, and with it their `_id`, set back. */
    const insertAt = async (time: Date, ...numbers: number[]) => {
      vi.useFakeTimers({ toFake: ['Date'], now: time })
      try {
        for (const n of numbers) await fixture.log.insert(entry(n))
      } finally {
        vi.useRealTimers()
      }
    }

    it('returns the inserted record with the fields given and a new _id', async () => {
      const stored = await fixture.log.insert(entry(1))
      expect(stored).toEqual({ ...entry(1), _id: expect.stringMatching(/^[0-9a-f]{24}$/) })
    })

    it('gives every record its own _id', async () => {
      const ids = new Set<string>()
      for (let n = 0; n < 5; n++) ids.add((await fixture.log.insert(entry(n)))._id)
      expect(ids.size).toBe(5)
    })

    it('lists records newest first', async () => {
      for (let n = 1; n <= 3; n++) await fixture.log.insert(entry(n))
      const listed = await fixture.log.list({ limit: 10 })
      expect(listed.map((record) => record.name)).toEqual(['Reader 3', 'Reader 2', 'Reader 1'])
      expect(listed[0]).toEqual({ ...entry(3), _id: expect.any(String) })
    })

    it('lists only the newest `limit` records', async () => {
      for (let n = 1; n <= 4; n++) await fixture.log.insert(entry(n))
      const listed = await fixture.log.list({ limit: 2 })
      expect(listed.map((record) => record.name)).toEqual(['Reader 4', 'Reader 3'])
    })

    it('lists nothing when empty, and answers ping', async () => {
      await expect(fixture.log.list({ limit: 10 })).resolves.toEqual([])
      await expect(fixture.log.ping()).resolves.toBeUndefined()
    })

    it('lists only the records before `before`, newest first', async () => {
      const ids: string[] = []
      for (let n = 1; n <= 5; n++) ids.push((await fixture.log.insert(entry(n)))._id)
      const before = ids[3]
      expect(names(await fixture.log.list({ limit: 10, before }))).toEqual([
        'Reader 3',
        'Reader 2',
        'Reader 1',
      ])
      expect(names(await fixture.log.list({ limit: 2, before }))).toEqual(['Reader 3', 'Reader 2'])
      expect(await fixture.log.list({ limit: 10, before: ids[0] })).toEqual([])
    })

    it('takes as `before` an id no record has', async () => {
      for (let n = 1; n <= 3; n++) await fixture.log.insert(entry(n))
      expect(await fixture.log.list({ limit: 10, before: '0'.repeat(24) })).toEqual([])
      const all = await fixture.log.list({ limit: 10, before: 'f'.repeat(24) })
      expect(names(all)).toEqual(['Reader 3', 'Reader 2', 'Reader 1'])
    })

    it('gives pages that continue each other with no gap and no repeat, as records arrive', async () => {
      for (let n = 1; n <= 7; n++) await fixture.log.insert(entry(n))
      const pages: string[][] = []
      let before: string | undefined
      for (;;) {
        const page = await fixture.log.list({ limit: 3, before })
        pages.push(names(page))
        if (page.length < 3) break
        before = page.at(-1)?._id
        // A send between two pages is on none of the later ones: they go back in time.
        if (pages.length === 1) await fixture.log.insert(entry(8))
      }
      expect(pages).toEqual([
        ['Reader 7', 'Reader 6', 'Reader 5'],
        ['Reader 4', 'Reader 3', 'Reader 2'],
        ['Reader 1'],
      ])
    })

    it('prunes the records created before a time, and says how many', async (context) => {
      if (fixture.expiresItself) return context.skip(fixture.expiresItself)
      await insertAt(daysAgo(40), 1, 2, 3)
      await insertAt(daysAgo(10), 4)
      await fixture.log.insert(entry(5))
      await expect(fixture.log.prune(daysAgo(30))).resolves.toBe(3)
      expect(names(await fixture.log.list({ limit: 10 }))).toEqual(['Reader 5', 'Reader 4'])
      await expect(fixture.log.prune(daysAgo(30))).resolves.toBe(0)
      await expect(fixture.log.prune(daysAgo(5))).resolves.toBe(1)
      expect(names(await fixture.log.list({ limit: 10 }))).toEqual(['Reader 5'])
    })

    it('keeps a record created at the very time it prunes before, by the time in its _id', async (context) => {
      if (fixture.expiresItself) return context.skip(fixture.expiresItself)
      const sentAt = secondsAgo(120)
      await insertAt(sentAt, 1)
      await expect(fixture.log.prune(sentAt)).resolves.toBe(0)
      await expect(fixture.log.prune(new Date(sentAt.getTime() + 1))).resolves.toBe(1)
      await expect(fixture.log.list({ limit: 10 })).resolves.toEqual([])
    })

    it('keeps records across a reopen, where the store persists', async (context) => {
      if (!fixture.reopen) return context.skip('this store keeps records in memory only')
      const stored = await fixture.log.insert(entry(7))
      await fixture.log.close()
      const reopened = await fixture.reopen()
      await expect(reopened.list({ limit: 10 })).resolves.toEqual([stored])
      await reopened.close()
    })
  })
  describeMailLogOwnersContract(adapter, open)
}
