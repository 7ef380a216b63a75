import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MailEvent, MailEvents } from '../../src/ports/mail-events.js'

export type MailEventsFixture = {
  events: MailEvents
  /** The same store as another process sees it, when the store is shared. */
  other?: MailEvents
  /** Opens the same store afresh, as a restarted process would; absent for memory-only stores. */
  reopen?: () => Promise<MailEvents>
  /** Why `prune` removes nothing, when the store expires events by itself. */
  expiresItself?: string
  cleanup: () => Promise<void>
}

let count = 0
const unique = (what: string) => `${what}-${++count}-${Date.now()}`
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds)).toISOString()
const event = (name: MailEvent['event'], seconds: number): MailEvent => ({
  id: unique('ev'),
  event: name,
  at: at(seconds),
})
const inAnHour = () => Date.now() + 3_600_000

/** The behaviour every MailEvents adapter must show; each adapter's test file runs it. */
export function describeMailEventsContract(
  adapter: string,
  open: () => Promise<MailEventsFixture>,
) {
  describe(`MailEvents contract: ${adapter}`, () => {
    let fixture: MailEventsFixture
    beforeEach(async () => {
      fixture = await open()
    })
    afterEach(() => fixture.cleanup())

    it('gives a token to the first event that asks, and says so to every other', async () => {
      const { events } = fixture
      const token = unique('token')
      expect(await events.takeToken(token, 'ev-a', inAnHour())).toBe('ev-a')
      expect(await events.takeToken(token, 'ev-a', inAnHour())).toBe('ev-a')
      expect(await events.takeToken(token, 'ev-b', inAnHour())).toBe('ev-a')
    })

    it('gives a token to one of 20 events asking at once', async () => {
      const token = unique('token')
      const asks = Array.from({ length: 20 }, (_, n) =>
        fixture.events.takeToken(token, `ev-${n}`, inAnHour()),
      )
      expect(new Set(await Promise.all(asks)).size).toBe(1)
    })

    it('gives an expired token to the next event', async () => {
      const token = unique('token')
      await fixture.events.takeToken(token, 'ev-a', Date.now() - 1)
      expect(await fixture.events.takeToken(token, 'ev-b', inAnHour())).toBe('ev-b')
    })

    it('files an event once, however many copies arrive at once', async () => {
      const messageId = unique('msg')
      const delivered = event('delivered', 5)
      const filed = await Promise.all(
        Array.from({ length: 20 }, () => fixture.events.file(messageId, delivered)),
      )
      expect(filed.filter(Boolean)).toHaveLength(1)
      expect(await fixture.events.file(messageId, delivered)).toBe(false)
      expect((await fixture.events.eventsOf([messageId])).get(messageId)).toEqual([delivered])
    })

    it("answers each message's events in the order they happened, whatever the order filed", async () => {
      const [one, two] = [unique('msg'), unique('msg')]
      const failure: MailEvent = {
        ...event('failed', 20),
        severity: 'permanent',
        reason: 'bounce',
        code: 550,
        description: 'No such user',
      }
      const accepted = event('accepted', 1)
      const other = event('delivered', 3)
      await fixture.events.file(one, failure)
      await fixture.events.file(two, other)
      await fixture.events.file(one, accepted)
      const found = await fixture.events.eventsOf([one, two, unique('never-sent')])
      expect(Object.fromEntries(found)).toEqual({ [one]: [accepted, failure], [two]: [other] })
    })

    it('forgets the events that happened before the cutoff', async ({ skip }) => {
      if (fixture.expiresItself) return skip(fixture.expiresItself)
      const messageId = unique('msg')
      const old = event('accepted', 1)
      const recent = { ...event('delivered', 2), at: new Date().toISOString() }
      await fixture.events.file(messageId, old)
      await fixture.events.file(messageId, recent)
      await fixture.events.prune(new Date(Date.now() - 86_400_000))
      expect((await fixture.events.eventsOf([messageId])).get(messageId)).toEqual([recent])
    })

    it('keeps what it filed across a restart', async ({ skip }) => {
      if (!fixture.reopen) return skip('kept in memory only')
      const messageId = unique('msg')
      const delivered = event('delivered', 5)
      const token = unique('token')
      await fixture.events.file(messageId, delivered)
      await fixture.events.takeToken(token, delivered.id, inAnHour())
      const reopened = await fixture.reopen()
      expect(await reopened.file(messageId, delivered)).toBe(false)
      expect(await reopened.takeToken(token, 'ev-other', inAnHour())).toBe(delivered.id)
    })

    it('files an event once from two processes at once, and gives a token to one', async ({
      skip,
    }) => {
      const { events, other } = fixture
      if (!other) return skip('one process only')
      const messageId = unique('msg')
      const delivered = event('delivered', 5)
      const token = unique('token')
      const both = [events, other, events, other]
      const filed = await Promise.all(both.map((store) => store.file(messageId, delivered)))
      expect(filed.filter(Boolean)).toHaveLength(1)
      const holders = await Promise.all(
        both.map((store, n) => store.takeToken(token, `ev-${n}`, inAnHour())),
      )
      expect(new Set(holders).size).toBe(1)
    })
  })
}
