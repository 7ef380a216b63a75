import type { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import type { Database } from 'lmdb'
import { gcraGiveBack } from './gcra.js'
import { type Admission, admit, type Bucket, type SendCounter } from './send-counter.js'

/**
 * Sends counted in the service's embedded store (database `sends`: each bucket's TAT), so a
 * restart forgets none. A count resolves once committed and synced. This process owns the
 * store, and the counts of one bucket run one after another, so two requests cannot both take
 * its last room; counts of other buckets go on meanwhile.
 */
export class EmbeddedSendCounter implements SendCounter {
  readonly #env: EmbeddedEnv
  readonly #tats: Database<string, string>
  /** The count in flight of each bucket it touches. */
  readonly #busy = new Map<string, Promise<unknown>>()

  constructor(env: EmbeddedEnv) {
    this.#env = env
    this.#tats = env.database<string>('sends', 'string')
  }

  take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    return this.#inTurn(buckets, async () => {
      const { admission, tats } = admit(buckets, (bucket) => this.#tatOf(bucket), now)
      if (admission.admitted) await this.#store(tats)
      return admission
    })
  }

  giveBack(buckets: readonly Bucket[], at: number): Promise<void> {
    return this.#inTurn(buckets, async () => {
      const tats = new Map(
        buckets.map((bucket) => [bucket, gcraGiveBack(this.#tatOf(bucket), bucket.limit, at)]),
      )
      await this.#store(tats)
    })
  }

  /** Reads one bucket: the embedded store answers while it is open. */
  async ping(): Promise<void> {
    this.#tats.get('')
  }

  async prune(now: number): Promise<number> {
    const empty: string[] = []
    for (const { key, value } of this.#tats.getRange()) {
      if (Number(value) <= now && !this.#busy.has(key)) empty.push(key)
    }
    if (empty.length > 0) {
      await this.#env.commit(0, () => {
        for (const key of empty) this.#tats.remove(key)
      })
    }
    return empty.length
  }

  #tatOf(bucket: Bucket): number | undefined {
    const value = this.#tats.get(bucket.key)
    return value === undefined ? undefined : Number(value)
  }

  /** Keeps the buckets' new TATs in one commit (undefined: the bucket is empty again). */
  async #store(tats: Map<Bucket, number | undefined>): Promise<void> {
    if (tats.size === 0) return
    await this.#env.commit(tats.size * 24, () => {
      for (const [bucket, tat] of tats) {
        if (tat === undefined) this.#tats.remove(bucket.key)
        else this.#tats.put(bucket.key, String(tat))
      }
    })
  }

  /** Runs `work` once no count touching these buckets is in flight. */
  async #inTurn<T>(buckets: readonly Bucket[], work: () => Promise<T>): Promise<T> {
    const keys = buckets.map((bucket) => bucket.key)
    while (keys.some((key) => this.#busy.has(key))) {
      await Promise.allSettled(keys.map((key) => this.#busy.get(key)))
    }
    const done = work()
    for (const key of keys) this.#busy.set(key, done)
    try {
      return await done
    } finally {
      for (const key of keys) if (this.#busy.get(key) === done) this.#busy.delete(key)
    }
  }
}
