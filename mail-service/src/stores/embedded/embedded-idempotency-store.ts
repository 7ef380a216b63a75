import type { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import type { Database } from 'lmdb'
import type {
  IdempotencyRecord,
  IdempotencyStore,
  KeptResponse,
  UnansweredKey,
} from '../../ports/idempotency-store.js'

/**
 * Keys in the service's embedded store (database `idempotency`), one record a key; a write
 * resolves once it is committed and synced. This process owns the store, so the keys it is
 * taking are also held in memory: two requests with one key cannot both take it, even while
 * the first one's write is in flight. A key whose request was cut by the end of the process
 * (a crash, a kill) stays taken until it expires, since its mail may have gone out; the next
 * process answers it `orphaned`: no request of its own is in progress under it.
 */
export class EmbeddedIdempotencyStore implements IdempotencyStore {
  readonly #env: EmbeddedEnv
  readonly #records: Database<string, string>
  /** Keys taken by this process whose request is in progress. */
  readonly #taking = new Map<string, IdempotencyRecord>()

  constructor(env: EmbeddedEnv) {
    this.#env = env
    this.#records = env.database<string>('idempotency', 'string')
  }

  async take(key: string, record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    const taking = this.#taking.get(key)
    if (taking && taking.expiresAt > record.takenAt) return { ...taking }
    const held = this.#read(key)
    if (held && held.expiresAt > record.takenAt)
      return held.answer ? held : { ...held, orphaned: true }
    this.#taking.set(key, record)
    try {
      await this.#put(key, record)
      return null
    } catch (error) {
      this.#taking.delete(key)
      throw error
    }
  }

  async complete(key: string, answer: KeptResponse, takenAt: number): Promise<void> {
    // `take` resolves once its record is committed: the stored record is the one to check.
    const record = this.#read(key)
    if (!record || record.takenAt !== takenAt || record.answer) return
    try {
      await this.#put(key, { ...record, answer })
    } finally {
      if (this.#taking.get(key)?.takenAt === takenAt) this.#taking.delete(key)
    }
  }

  async release(key: string): Promise<void> {
    try {
      await this.#env.commit(0, () => this.#records.remove(key))
    } finally {
      this.#taking.delete(key)
    }
  }

  async unanswered(now: number, limit: number): Promise<UnansweredKey[]> {
    const found: UnansweredKey[] = []
    for (const { key, value } of this.#records.getRange()) {
      if (this.#taking.has(key)) continue
      const record = JSON.parse(value) as IdempotencyRecord
      if (!record.answer && record.expiresAt > now) found.push({ key, record })
    }
    return found.sort((a, b) => a.record.takenAt - b.record.takenAt).slice(0, limit)
  }

  /** Reads one key, and probes the disk after a failed commit (`EmbeddedEnv.probe`). */
  async ping(): Promise<void> {
    this.#records.get('')
    await this.#env.probe()
  }

  async prune(now: number): Promise<number> {
    const expired: string[] = []
    for (const { key, value } of this.#records.getRange()) {
      // A key of this process's whose send's outcome is unknown is forgotten once it expires.
      const taking = this.#taking.get(key)
      if (taking && taking.expiresAt > now) continue
      this.#taking.delete(key)
      if ((JSON.parse(value) as IdempotencyRecord).expiresAt <= now) expired.push(key)
    }
    if (expired.length === 0) return 0
    await this.#env.commit(0, () => {
      for (const key of expired) this.#records.remove(key)
    })
    return expired.length
  }

  #read(key: string): IdempotencyRecord | undefined {
    const value = this.#records.get(key)
    return value === undefined ? undefined : (JSON.parse(value) as IdempotencyRecord)
  }

  #put(key: string, record: IdempotencyRecord): Promise<void> {
    const json = JSON.stringify(record)
    return this.#env.commit(json.length, () => this.#records.put(key, json))
  }
}
