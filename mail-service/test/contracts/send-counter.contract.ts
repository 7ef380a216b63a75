import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Bucket, SendCounter } from '../../src/ports/send-counter.js'

export type SendCounterFixture = {
  counter: SendCounter
  /** The same counts as a new process sees them; absent for memory-only counters. */
  reopen?: () => Promise<SendCounter>
  cleanup: () => Promise<void>
}

const threePerHour: Bucket = { key: 'to:ada@example.com', limit: { count: 3, windowMs: 3_600_000 } }
const twoPerMinute: Bucket = { key: 'key:abc', limit: { count: 2, windowMs: 60_000 } }

/** The behaviour every SendCounter adapter must show; each adapter's test file runs it. */
export function describeSendCounterContract(
  adapter: string,
  open: () => Promise<SendCounterFixture>,
) {
  describe(`SendCounter contract: ${adapter}`, () => {
    let fixture: SendCounterFixture
    beforeEach(async () => {
      fixture = await open()
    })
    afterEach(async () => {
      await fixture.cleanup()
    })

    it('admits up to the limit at once, then one more every window / limit', async () => {
      const t0 = 1_000_000_000_000
      const twentyMinutes = 1_200_000
      for (const at of [t0, t0 + 1_000, t0 + 2_000]) {
        expect(await fixture.counter.take([threePerHour], at)).toEqual({ admitted: true })
      }
      expect(await fixture.counter.take([threePerHour], t0 + 3_000)).toEqual({
        admitted: false,
        bucket: threePerHour.key,
        retryAfterMs: twentyMinutes - 3_000,
      })
      expect((await fixture.counter.take([threePerHour], t0 + twentyMinutes - 1)).admitted).toBe(
        false,
      )
      expect(await fixture.counter.take([threePerHour], t0 + twentyMinutes)).toEqual({
        admitted: true,
      })
      expect((await fixture.counter.take([threePerHour], t0 + twentyMinutes + 1)).admitted).toBe(
        false,
      )
      // Once the window has passed with no send, the whole limit fits at once again.
      const later = t0 + 2 * 3_600_000
      for (const at of [later, later, later]) {
        expect((await fixture.counter.take([threePerHour], at)).admitted).toBe(true)
      }
      expect((await fixture.counter.take([threePerHour], later)).admitted).toBe(false)
    })

    it('forgets buckets once they are empty again', async () => {
      const t0 = 1_000_000_000_000
      await fixture.counter.take([twoPerMinute], t0)
      expect(await fixture.counter.prune(t0 + 1_000)).toBe(0)
      await fixture.counter.prune(t0 + 60_000)
      expect(await fixture.counter.take([twoPerMinute], t0 + 60_000)).toEqual({ admitted: true })
    })

    it('answers ping while the store answers', async () => {
      await expect(fixture.counter.ping()).resolves.toBeUndefined()
    })

    it('counts in no bucket when one of them is full', async () => {
      const t0 = 1_000_000_000_000
      await fixture.counter.take([twoPerMinute], t0)
      await fixture.counter.take([twoPerMinute], t0 + 1)
      const refused = await fixture.counter.take([threePerHour, twoPerMinute], t0 + 2)
      expect(refused).toMatchObject({ admitted: false, bucket: twoPerMinute.key })
      for (const at of [t0 + 3, t0 + 4, t0 + 5]) {
        expect((await fixture.counter.take([threePerHour], at)).admitted).toBe(true)
      }
    })

    it('takes back a send the provider did not accept', async () => {
      const t0 = 1_000_000_000_000
      for (const at of [t0, t0 + 1, t0 + 2]) await fixture.counter.take([threePerHour], at)
      await fixture.counter.giveBack([threePerHour], t0 + 2, t0 + 3)
      expect(await fixture.counter.take([threePerHour], t0 + 3)).toEqual({ admitted: true })
      expect((await fixture.counter.take([threePerHour], t0 + 4)).admitted).toBe(false)
    })

    it('takes back nothing once the send’s interval has passed: the bucket refilled since', async () => {
      const t0 = 1_000_000_000_000
      // The first send's slot ends at t0 + 30 s; the bucket is empty again at t0 + 40 s and
      // full with two later sends.
      await fixture.counter.take([twoPerMinute], t0)
      await fixture.counter.take([twoPerMinute], t0 + 40_000)
      await fixture.counter.take([twoPerMinute], t0 + 40_000)
      expect((await fixture.counter.take([twoPerMinute], t0 + 40_000)).admitted).toBe(false)
      // The first send fails late: taking its interval back would admit a third in one minute.
      await fixture.counter.giveBack([twoPerMinute], t0, t0 + 41_000)
      expect((await fixture.counter.take([twoPerMinute], t0 + 41_000)).admitted).toBe(false)
    })

    it('keeps buckets apart', async () => {
      const t0 = 1_000_000_000_000
      await fixture.counter.take([twoPerMinute], t0)
      await fixture.counter.take([twoPerMinute], t0)
      const other = { ...twoPerMinute, key: 'key:def' }
      expect(await fixture.counter.take([other], t0)).toEqual({ admitted: true })
    })

    it('admits no more than the limit of simultaneous sends', async () => {
      const t0 = 1_000_000_000_000
      const takes = await Promise.all(
        Array.from({ length: 10 }, () => fixture.counter.take([threePerHour], t0)),
      )
      expect(takes.filter((take) => take.admitted)).toHaveLength(3)
    })

    it('holds its counts across a restart', async ({ skip }) => {
      if (!fixture.reopen) return skip()
      const t0 = 1_000_000_000_000
      await fixture.counter.take([twoPerMinute], t0)
      await fixture.counter.take([twoPerMinute], t0)
      const reopened = await fixture.reopen()
      expect((await reopened.take([twoPerMinute], t0 + 10)).admitted).toBe(false)
    })
  })
}
