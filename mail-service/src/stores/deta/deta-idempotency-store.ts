import { Deta } from 'deta'
import type {
  IdempotencyRecord,
  IdempotencyStore,
  KeptResponse,
} from '../../ports/idempotency-store.js'

type DetaBase = ReturnType<ReturnType<typeof Deta>['Base']>

/**
 * Keys in a Deta Base (`idempotency`), shared by every instance that uses it. Taking a key is
 * the Base's own insert, which refuses a key that exists, so two instances cannot both take
 * it; each record carries the Base's expiry, so the Base forgets it after 24 hours by itself.
 * A key left without an answer for `abandonAfterMs` (its instance ended mid-request) is free
 * again.
 */
export class DetaIdempotencyStore implements IdempotencyStore {
  readonly #base: DetaBase
  readonly #abandonAfterMs: number
  /** Keys this instance took, for completing them without a read. */
  readonly #taken = new Map<string, IdempotencyRecord>()

  constructor({
    projectKey,
    host,
    abandonAfterMs,
    baseName = 'idempotency',
  }: { projectKey: string; host: string; abandonAfterMs: number; baseName?: string }) {
    this.#base = Deta(projectKey).Base(baseName, host)
    this.#abandonAfterMs = abandonAfterMs
  }

  async take(key: string, record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    const expireAt = new Date(record.expiresAt)
    try {
      await this.#base.insert(record, key, { expireAt })
      this.#taken.set(key, record)
      return null
    } catch (error) {
      if (!(error instanceof Error && /already exists/.test(error.message))) throw error
    }
    type Item = IdempotencyRecord & { key: string; __expires?: number }
    const held = (await this.#base.get(key)) as Item | null
    const abandoned = held && !held.answer && held.takenAt + this.#abandonAfterMs <= record.takenAt
    if (held && held.expiresAt > record.takenAt && !abandoned) {
      const { key: _, __expires: __, ...stored } = held
      return stored
    }
    await this.#base.put(record, key, { expireAt })
    this.#taken.set(key, record)
    return null
  }

  async complete(key: string, answer: KeptResponse): Promise<void> {
    const record = this.#taken.get(key)
    this.#taken.delete(key)
    if (!record) return
    await this.#base.put({ ...record, answer }, key, {
      expireAt: new Date(record.expiresAt),
    })
  }

  async release(key: string): Promise<void> {
    this.#taken.delete(key)
    await this.#base.delete(key)
  }

  async ping(): Promise<void> {
    await this.#base.fetch([], { limit: 1 })
  }

  async prune(): Promise<number> {
    // The Base removes expired records itself.
    return 0
  }
}
