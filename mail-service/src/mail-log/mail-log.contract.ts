import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MailLog, MailLogEntry } from './mail-log.js'

export type MailLogFixture = {
  log: MailLog<MailLogEntry>
  /** Opens the same store afresh, as a restarted process would; absent for memory-only stores. */
  reopen?: () => Promise<MailLog<MailLogEntry>>
  cleanup: () => Promise<void>
}

const entry = (n: number): MailLogEntry => ({
  email: `reader${n}@example.com`,
  name: `Reader ${n}`,
  output: { id: `<20260101120000.${n}@mg.example.com>`, message: 'Queued. Thank you.' },
})

/** The behaviour every MailLog adapter must show; each adapter's test file runs it. */
export function describeMailLogContract(adapter: string, open: () => Promise<MailLogFixture>) {
  describe(`MailLog contract: ${adapter}`, () => {
    let fixture: MailLogFixture
    beforeEach(async () => {
      fixture = await open()
    })
    afterEach(async () => {
      await fixture.cleanup()
    })

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

    it('keeps records across a reopen, where the store persists', async (context) => {
      if (!fixture.reopen) return context.skip('this store keeps records in memory only')
      const stored = await fixture.log.insert(entry(7))
      await fixture.log.close()
      const reopened = await fixture.reopen()
      await expect(reopened.list({ limit: 10 })).resolves.toEqual([stored])
      await reopened.close()
    })
  })
}
