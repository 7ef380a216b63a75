import { SortableIdSequence } from '@movies-and-mail/store-kit'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { MailLogEntry, Stored } from '../../src/ports/mail-log.js'
import type { MailLogFixture, MailLogSeams } from './mail-log.contract.js'

/** Two API keys' digests, as `keyDigest` makes them. */
const k1 = '1f'.repeat(16)
const k2 = '2e'.repeat(16)

const entry = (name: string): MailLogEntry => ({
  email: `${name.toLowerCase()}@example.com`,
  name,
  output: { id: `<20260101120000.${name}@mg.example.com>`, message: 'Queued. Thank you.' },
})
const names = (records: Stored<MailLogEntry>[]) => records.map((record) => record.name)
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000)

/**
 * The owner cases of the MailLog contract (`describeMailLogContract` runs them for every
 * adapter): a record is filed under the digest of the key that made it, a page of one owner
 * holds that owner's records only, paged as every page is, and a list without an owner (an
 * admin's) holds every record, those made without an owner included.
 */
export function describeMailLogOwnersContract(
  adapter: string,
  open: (seams: MailLogSeams) => Promise<MailLogFixture>,
) {
  describe(`MailLog contract, owners: ${adapter}`, () => {
    let fixture: MailLogFixture
    beforeEach(async () => {
      fixture = await open({ ids: new SortableIdSequence() })
    })
    afterEach(async () => {
      vi.useRealTimers()
      await fixture.cleanup()
    })

    /** Inserts each `[name, owner]` in turn; answers the records as stored, by name. */
    const insertAll = async (...records: [string, string | undefined][]) => {
      const stored = new Map<string, Stored<MailLogEntry>>()
      for (const [name, owner] of records) {
        stored.set(name, await fixture.log.insert(entry(name), owner))
      }
      return stored
    }

    it('lists only the records of the owner asked for; without an owner, every record', async () => {
      await insertAll(['Ada', k1], ['Bob', k2], ['Cy', k1], ['Dee', undefined], ['Eve', k2])
      expect(names(await fixture.log.list({ limit: 10, owner: k1 }))).toEqual(['Cy', 'Ada'])
      expect(names(await fixture.log.list({ limit: 10, owner: k2 }))).toEqual(['Eve', 'Bob'])
      expect(names(await fixture.log.list({ limit: 10 }))).toEqual([
        'Eve',
        'Dee',
        'Cy',
        'Bob',
        'Ada',
      ])
    })

    it('answers records as they were given, never with their owner', async () => {
      const stored = await fixture.log.insert(entry('Ada'), k1)
      expect(stored).toEqual({ ...entry('Ada'), _id: expect.stringMatching(/^[0-9a-f]{24}$/) })
      await expect(fixture.log.list({ limit: 10, owner: k1 })).resolves.toEqual([stored])
      await expect(fixture.log.list({ limit: 10 })).resolves.toEqual([stored])
    })

    it('lists nothing for an owner without records, and no record made without an owner', async () => {
      await insertAll(['Ada', k1], ['Dee', undefined])
      await expect(fixture.log.list({ limit: 10, owner: k2 })).resolves.toEqual([])
    })

    it("pages one owner's records with limit and before, whatever lies between them", async () => {
      const stored = await insertAll(
        ...(['A1', 'B1', 'B2', 'A2', 'B3', 'A3', 'A4', 'B4'] as const).map(
          (name): [string, string] => [name, name.startsWith('A') ? k1 : k2],
        ),
      )
      const pages: string[][] = []
      let before: string | undefined
      for (;;) {
        const page = await fixture.log.list({ limit: 2, before, owner: k1 })
        pages.push(names(page))
        if (page.length < 2) break
        before = page.at(-1)?._id
      }
      expect(pages).toEqual([['A4', 'A3'], ['A2', 'A1'], []])
      // A cursor may be any id: another owner's, or one no record has.
      const b3 = stored.get('B3')?._id
      expect(names(await fixture.log.list({ limit: 10, before: b3, owner: k1 }))).toEqual([
        'A2',
        'A1',
      ])
      const end = 'f'.repeat(24)
      expect(names(await fixture.log.list({ limit: 3, before: end, owner: k2 }))).toEqual([
        'B4',
        'B3',
        'B2',
      ])
    })

    it("prunes every owner's old records", async (context) => {
      if (fixture.expiresItself) return context.skip(fixture.expiresItself)
      vi.useFakeTimers({ toFake: ['Date'], now: daysAgo(40) })
      await insertAll(['Old1', k1], ['Old2', k2], ['Old3', undefined])
      vi.useRealTimers()
      await insertAll(['New1', k1], ['New2', k2])
      await expect(fixture.log.prune(daysAgo(30))).resolves.toBe(3)
      expect(names(await fixture.log.list({ limit: 10, owner: k1 }))).toEqual(['New1'])
      expect(names(await fixture.log.list({ limit: 10, owner: k2 }))).toEqual(['New2'])
      expect(names(await fixture.log.list({ limit: 10 }))).toEqual(['New2', 'New1'])
    })

    it('keeps each record under its owner across a reopen, where the store persists', async (context) => {
      if (!fixture.reopen) return context.skip('this store keeps records in memory only')
      await insertAll(['Ada', k1], ['Bob', k2])
      await fixture.log.close()
      const reopened = await fixture.reopen()
      expect(names(await reopened.list({ limit: 10, owner: k2 }))).toEqual(['Bob'])
      await reopened.close()
    })
  })
}
