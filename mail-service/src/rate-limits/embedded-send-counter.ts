import type { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import type { Database } from 'lmdb'
import { type Admission, admit, type Bucket, inWindow, type SendCounter } from './send-counter.js'

/**
 * Sends counted in the service's embedded store (database `sends`: per bucket, the times of
 * its sends inside the window), so a restart forgets none. A count resolves once committed
 * and synced. This process owns the store, and counts run one at a time, so two requests
 * cannot both take the last slot.
 */
/** A bucket as stored: its window when last counted, and its sends inside it. */
type Stored = { windowMs: number; sends: number[] }

export class EmbeddedSendCounter implements SendCounter {
  readonly #env: EmbeddedEnv
  readonly #sends: Database<string, string>
  #queue: Promise<unknown> = Promise.resolve()

  constructor(env: EmbeddedEnv) {
    this.#env = env
    this.#sends = env.database<string>('sends', 'string')
  }

  take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    const turn = this.#queue.then(() => this.#take(buckets, now))
    this.#queue = turn.catch(() => {})
    return turn
  }

  async #take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    const recent = new Map(
      buckets.map((bucket) => [bucket, inWindow(this.#read(bucket), bucket.limit, now)]),
    )
    const admission = admit(buckets, (bucket) => recent.get(bucket) ?? [], now)
    if (!admission.admitted) return admission
    const writes = buckets.map((bucket): [string, string] => {
      const sends = [...(recent.get(bucket) ?? []), now]
      const stored: Stored = { windowMs: bucket.limit.windowMs, sends }
      return [bucket.key, JSON.stringify(stored)]
    })
    const bytes = writes.reduce((sum, [, json]) => sum + json.length, 0)
    await this.#env.commit(bytes, () => {
      for (const [key, json] of writes) this.#sends.put(key, json)
    })
    return admission
  }

  giveBack(buckets: readonly Bucket[], at: number): Promise<void> {
    const turn = this.#queue.then(async () => {
      const writes = buckets.flatMap((bucket): [string, string][] => {
        const value = this.#sends.get(bucket.key)
        if (value === undefined) return []
        const stored = JSON.parse(value) as Stored
        const index = stored.sends.lastIndexOf(at)
        if (index < 0) return []
        stored.sends.splice(index, 1)
        return [[bucket.key, JSON.stringify(stored)]]
      })
      if (writes.length === 0) return
      const bytes = writes.reduce((sum, [, json]) => sum + json.length, 0)
      await this.#env.commit(bytes, () => {
        for (const [key, json] of writes) this.#sends.put(key, json)
      })
    })
    this.#queue = turn.catch(() => {})
    return turn
  }

  prune(now: number): Promise<number> {
    const turn = this.#queue.then(async () => {
      const stale: string[] = []
      for (const { key, value } of this.#sends.getRange()) {
        const { windowMs, sends } = JSON.parse(value) as Stored
        if (sends.every((at) => at <= now - windowMs)) stale.push(key)
      }
      if (stale.length > 0) {
        await this.#env.commit(0, () => {
          for (const key of stale) this.#sends.remove(key)
        })
      }
      return stale.length
    })
    this.#queue = turn.catch(() => {})
    return turn
  }

  #read(bucket: Bucket): number[] {
    const value = this.#sends.get(bucket.key)
    return value === undefined ? [] : (JSON.parse(value) as Stored).sends
  }
}
