import { Deta } from 'deta'
import type {
  IdempotencyRecord,
  IdempotencyStore,
  KeptResponse,
  UnansweredKey,
} from '../../ports/idempotency-store.js'

type DetaBase = ReturnType<ReturnType<typeof Deta>['Base']>
/** A record as the Base answers it: with its key and the Base's expiry. */
type StoredItem = IdempotencyRecord & { key: string; __expires?: number }

/**
 * Keys in a Deta Base (`idempotency`), shared by every instance that uses it. Taking a key is
 * the Base's own insert, which refuses a key that exists, so two instances cannot both take
 * it; each record carries the Base's expiry, so the Base forgets it after 24 hours by itself.
 * A key left without an answer (its instance ended mid-request) stays taken until then.
 * Completing reads the key and writes it: the Base has no conditional write, so of two
 * instances completing one key at once, the later write stays (both hold the one send's
 * answer).
 */
export class DetaIdempotencyStore implements IdempotencyStore {
  readonly #base: DetaBase
  /** Keys this instance took, for completing them without a read. */
  readonly #taken = new Map<string, IdempotencyRecord>()

  constructor({
    projectKey,
    host,
    baseName = 'idempotency',
  }: { projectKey: string; host: string; baseName?: string }) {
    this.#base = Deta(projectKey).Base(baseName, host)
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
    const held = await this.#read(key)
    if (held && held.expiresAt > record.takenAt) return held
    await this.#base.put(record, key, { expireAt })
    this.#taken.set(key, record)
    return null
  }

  async complete(key: string, answer: KeptResponse, takenAt: number): Promise<void> {
    if (this.#taken.get(key)?.takenAt === takenAt) this.#taken.delete(key)
    // Read, not remembered: another instance may have completed it from the mail log.
    const record = await this.#read(key)
    if (!record || record.takenAt !== takenAt || record.answer) return
    await this.#base.put({ ...record, answer }, key, {
      expireAt: new Date(record.expiresAt),
    })
  }

  /** The keys not yet expired, page by page (the Base has no query for a missing field). */
  async unanswered(now: number, limit: number): Promise<UnansweredKey[]> {
    const found: UnansweredKey[] = []
    let last: string | undefined
    do {
      const page = await this.#base.fetch({ 'expiresAt?gt': now }, { limit: 1000, last })
      for (const item of page.items as StoredItem[]) {
        const { key, __expires: _, ...record } = item
        if (!record.answer && !this.#taken.has(key)) found.push({ key, record })
      }
      last = page.last
    } while (last)
    return found.sort((a, b) => a.record.takenAt - b.record.takenAt).slice(0, limit)
  }

  async #read(key: string): Promise<IdempotencyRecord | undefined> {
    const held = (await this.#base.get(key)) as StoredItem | null
    if (!held) return undefined
    const { key: _, __expires: __, ...stored } = held
    return stored
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
