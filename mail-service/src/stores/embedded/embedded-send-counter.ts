import type { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import type { Database } from 'lmdb'
import { type Admission, admit, type Bucket, type SendCounter } from '../../ports/send-counter.js'
import { gcraGiveBack } from '../../rate-limits/gcra.js'

/** How long a failed commit of counts waits before it is tried again. */
const retryAfterFailureMs = 1_000

/**
 * Sends counted in the service's embedded store (database `sends`: each bucket's TAT). This
 * process owns the store, so it decides each count against the TATs it holds in memory, at once
 * and in order: two requests cannot both take a bucket's last room, and no count waits for a
 * disk. The buckets a count changed are written behind it, all that changed meanwhile in one
 * commit, one commit at a time: a stop (`flushed`) writes the last of them, and a crash loses
 * at most the counts of the commit under way, whose sends a limit then admits once more.
 * Writing each count before its send made a busy limit cost a synced commit a send (0.80-0.87x
 * of the rate without limits, measured side by side).
 */
export class EmbeddedSendCounter implements SendCounter {
  readonly #env: EmbeddedEnv
  readonly #stored: Database<string, string>
  /** Each bucket's TAT as decided, read from the store the first time a bucket is counted. */
  readonly #tats = new Map<string, number | undefined>()
  /** Buckets whose TAT changed since they were last written. */
  readonly #dirty = new Set<string>()
  /** The commit under way, if one is. */
  #writing: Promise<void> | undefined
  /** Why the last commit failed, until one succeeds. */
  #failure: unknown
  /** The next try after a failed commit, if one waits. */
  #retry: ReturnType<typeof setTimeout> | undefined

  constructor(env: EmbeddedEnv) {
    this.#env = env
    this.#stored = env.database<string>('sends', 'string')
  }

  async take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    const { admission, tats } = admit(buckets, (bucket) => this.#tatOf(bucket), now)
    this.#change(tats)
    return admission
  }

  async giveBack(buckets: readonly Bucket[], takenAt: number, now: number): Promise<void> {
    const tats = new Map(
      buckets.map((bucket) => [
        bucket,
        gcraGiveBack(this.#tatOf(bucket), bucket.limit, takenAt, now),
      ]),
    )
    this.#change(tats)
  }

  async prune(now: number): Promise<number> {
    await this.flushed()
    const empty: string[] = []
    for (const { key, value } of this.#stored.getRange()) {
      if (Number(value) <= now) empty.push(key)
    }
    for (const [key, tat] of this.#tats) if (tat === undefined || tat <= now) this.#tats.delete(key)
    if (empty.length > 0) {
      await this.#env.commit(0, () => {
        for (const key of empty) this.#stored.remove(key)
      })
    }
    return empty.length
  }

  /** Reads one bucket, and probes the disk after a failed commit (`EmbeddedEnv.probe`). */
  async ping(): Promise<void> {
    this.#stored.get('')
    await this.#env.probe()
  }

  /**
   * Resolves once every count decided so far is committed: for a stop, before the store closes.
   * Tries a failed commit once more at once; rejects if that fails too, rather than wait for a
   * disk that may not come back.
   */
  async flushed(): Promise<void> {
    for (;;) {
      if (this.#writing) {
        await this.#writing
        continue
      }
      if (this.#dirty.size === 0) return
      const failedBefore = this.#failure !== undefined
      this.#cancelRetry()
      await this.#write()
      if (failedBefore && this.#failure !== undefined && this.#dirty.size > 0) {
        this.#cancelRetry()
        throw this.#failure
      }
    }
  }

  #tatOf(bucket: Bucket): number | undefined {
    if (this.#tats.has(bucket.key)) return this.#tats.get(bucket.key)
    const value = this.#stored.get(bucket.key)
    const tat = value === undefined ? undefined : Number(value)
    this.#tats.set(bucket.key, tat)
    return tat
  }

  #change(tats: Map<Bucket, number | undefined>): void {
    for (const [bucket, tat] of tats) {
      this.#tats.set(bucket.key, tat)
      this.#dirty.add(bucket.key)
    }
    // After a failed commit, the retry's timer writes what changed meanwhile.
    if (tats.size > 0 && !this.#writing && !this.#retry) void this.#write()
  }

  /** Commits the buckets changed so far (undefined: empty again), then the ones changed meanwhile. */
  #write(): Promise<void> {
    const keys = [...this.#dirty]
    this.#dirty.clear()
    const writing = this.#env
      .commit(keys.length * 24, () => {
        for (const key of keys) {
          const tat = this.#tats.get(key)
          if (tat === undefined) this.#stored.remove(key)
          else this.#stored.put(key, String(tat))
        }
      })
      .then(
        () => {
          this.#failure = undefined
        },
        (error: unknown) => {
          // Not written: kept for a later commit (a failing disk shows in every other write).
          for (const key of keys) this.#dirty.add(key)
          this.#failure = error
        },
      )
      .finally(() => {
        this.#writing = undefined
        if (this.#dirty.size === 0) return
        // A full disk refuses a commit before it waits for anything: tried again at once, it
        // would fail again without end and never let the process answer anything else.
        if (this.#failure === undefined) void this.#write()
        else this.#retryLater()
      })
    this.#writing = writing
    return writing
  }

  #retryLater(): void {
    if (this.#retry) return
    this.#retry = setTimeout(() => {
      this.#retry = undefined
      if (!this.#writing && this.#dirty.size > 0) void this.#write()
    }, retryAfterFailureMs)
    // A stop flushes what is left; the timer alone keeps no process alive.
    this.#retry.unref?.()
  }

  #cancelRetry(): void {
    clearTimeout(this.#retry)
    this.#retry = undefined
  }
}
