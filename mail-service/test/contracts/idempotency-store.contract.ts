import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { IdempotencyRecord, IdempotencyStore } from '../../src/ports/idempotency-store.js'

export type IdempotencyFixture = {
  store: IdempotencyStore
  /** The same store as a new process sees it; absent for memory-only stores. */
  reopen?: () => Promise<IdempotencyStore>
  /** Set, with the reason, for a store whose records expire by themselves: prune has nothing to do. */
  expiresItself?: string
  cleanup: () => Promise<void>
}

const hour = 3_600_000
const record = (takenAt: number, fingerprint = 'body-1'): IdempotencyRecord => ({
  fingerprint,
  takenAt,
  expiresAt: takenAt + 24 * hour,
})

/** The behaviour every IdempotencyStore adapter must show; each adapter's test file runs it. */
export function describeIdempotencyStoreContract(
  adapter: string,
  open: () => Promise<IdempotencyFixture>,
) {
  describe(`IdempotencyStore contract: ${adapter}`, () => {
    let fixture: IdempotencyFixture
    beforeEach(async () => {
      fixture = await open()
    })
    afterEach(async () => {
      await fixture.cleanup()
    })

    it('answers ping while the store answers', async () => {
      await expect(fixture.store.ping()).resolves.toBeUndefined()
    })

    it('takes a free key, and then answers the record that holds it', async () => {
      const now = Date.now()
      expect(await fixture.store.take('k1', record(now))).toBeNull()
      expect(await fixture.store.take('k1', record(now + 1, 'body-2'))).toEqual(record(now))
    })

    it('keeps the answer of a completed key and gives it to every repeat', async () => {
      const now = Date.now()
      await fixture.store.take('k1', record(now))
      await fixture.store.complete('k1', { status: 201, body: '{"id":"<1@x>"}' }, now)
      const held = await fixture.store.take('k1', record(now + 5))
      expect(held).toEqual({ ...record(now), answer: { status: 201, body: '{"id":"<1@x>"}' } })
      expect(await fixture.store.take('k1', record(now + 6))).toEqual(held)
    })

    it('frees a released key for the next request', async () => {
      const now = Date.now()
      await fixture.store.take('k1', record(now))
      await fixture.store.release('k1')
      expect(await fixture.store.take('k1', record(now + 1, 'body-2'))).toBeNull()
      expect((await fixture.store.take('k1', record(now + 2)))?.fingerprint).toBe('body-2')
    })

    it('keeps keys apart', async () => {
      const now = Date.now()
      expect(await fixture.store.take('k1', record(now))).toBeNull()
      expect(await fixture.store.take('k2', record(now))).toBeNull()
    })

    it('treats an expired key as free, and prunes expired keys', async () => {
      const then = Date.now() - 25 * hour
      await fixture.store.take('old', record(then))
      await fixture.store.complete('old', { status: 201, body: '{}' }, then)
      const now = Date.now()
      await fixture.store.take('new', record(now))
      await fixture.store.complete('new', { status: 201, body: '{}' }, now)
      expect(await fixture.store.take('old', record(Date.now(), 'body-2'))).toBeNull()
      await fixture.store.take('old2', record(then))
      await fixture.store.complete('old2', { status: 201, body: '{}' }, then)
      if (!fixture.expiresItself) expect(await fixture.store.prune(Date.now())).toBe(1)
      expect(await fixture.store.take('old2', record(Date.now(), 'body-3'))).toBeNull()
      expect((await fixture.store.take('new', record(Date.now())))?.answer?.status).toBe(201)
    })

    it('remembers completed keys across a restart', async ({ skip }) => {
      if (!fixture.reopen) return skip()
      const now = Date.now()
      await fixture.store.take('k1', record(now))
      await fixture.store.complete('k1', { status: 201, body: '{"id":"<1@x>"}' }, now)
      const reopened = await fixture.reopen()
      expect((await reopened.take('k1', record(now + 1)))?.answer).toEqual({
        status: 201,
        body: '{"id":"<1@x>"}',
      })
    })

    it('keeps a key taken without an answer until it expires: a send of unknown outcome', async () => {
      const now = Date.now()
      await fixture.store.take('k1', record(now))
      for (const later of [now + 2 * hour, now + 23 * hour]) {
        const held = await fixture.store.take('k1', record(later, 'body-2'))
        expect(held).toMatchObject(record(now))
        expect(held?.answer).toBeUndefined()
      }
      expect(await fixture.store.take('k1', record(now + 24 * hour, 'body-2'))).toBeNull()
    })

    it('keeps a key without an answer taken across a restart, its take as it was', async ({
      skip,
    }) => {
      if (!fixture.reopen) return skip()
      const now = Date.now()
      await fixture.store.take('k1', record(now))
      const reopened = await fixture.reopen()
      const held = await reopened.take('k1', record(now + hour, 'body-2'))
      expect(held).toMatchObject(record(now))
      expect(held?.answer).toBeUndefined()
    })

    it('completes a key from another process by the take it names, once', async ({ skip }) => {
      if (!fixture.reopen) return skip()
      const now = Date.now()
      await fixture.store.take('k1', record(now))
      const other = await fixture.reopen()
      await other.complete('k1', { status: 202, body: '{"message":"sent"}' }, now - 1)
      expect((await other.take('k1', record(now + 1)))?.answer).toBeUndefined()
      await other.complete('k1', { status: 202, body: '{"message":"sent"}' }, now)
      await other.complete('k1', { status: 201, body: '{"id":"<2@x>"}' }, now)
      expect((await other.take('k1', record(now + 2)))?.answer).toEqual({
        status: 202,
        body: '{"message":"sent"}',
      })
    })

    it('lists the keys held without an answer, oldest first, with their owners', async () => {
      const now = Date.now()
      await fixture.store.take('expired', { ...record(now - 25 * hour), owner: 'owner-1' })
      await fixture.store.take('left', { ...record(now - 2), owner: 'owner-1' })
      await fixture.store.take('answered', record(now - 1))
      await fixture.store.complete('answered', { status: 201, body: '{}' }, now - 1)
      await fixture.store.take('of-old', record(now))
      // As another process sees them: one leaves out its own requests in progress.
      const other = fixture.reopen ? await fixture.reopen() : fixture.store
      expect(await other.unanswered(now, 10)).toEqual([
        { key: 'left', record: { ...record(now - 2), owner: 'owner-1' } },
        { key: 'of-old', record: record(now) },
      ])
      expect((await other.unanswered(now, 1)).map(({ key }) => key)).toEqual(['left'])
    })

    it('keeps the 202 of a send whose answer could not be read, as a 201', async () => {
      const now = Date.now()
      await fixture.store.take('k1', record(now))
      await fixture.store.complete('k1', { status: 202, body: '{"message":"sent"}' }, now)
      expect((await fixture.store.take('k1', record(now + 1)))?.answer).toEqual({
        status: 202,
        body: '{"message":"sent"}',
      })
    })
  })
}
