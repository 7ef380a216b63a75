import type {
  IdempotencyRecord,
  IdempotencyStore,
  KeptResponse,
  UnansweredKey,
} from '../../../src/ports/idempotency-store.js'

/**
 * Keys in memory only, for tests: no entry keeps state where a restart would lose it. At most
 * `maxKeys` are kept; the oldest go first.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #records = new Map<string, IdempotencyRecord>()
  readonly #maxKeys: number

  constructor({ maxKeys = 10_000 }: { maxKeys?: number } = {}) {
    this.#maxKeys = maxKeys
  }

  async take(key: string, record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    const held = this.#records.get(key)
    if (held && held.expiresAt > record.takenAt) return structuredClone(held)
    this.#records.delete(key)
    this.#records.set(key, structuredClone(record))
    for (const oldest of this.#records.keys()) {
      if (this.#records.size <= this.#maxKeys) break
      this.#records.delete(oldest)
    }
    return null
  }

  async complete(key: string, answer: KeptResponse, takenAt: number): Promise<void> {
    const held = this.#records.get(key)
    if (held?.takenAt === takenAt && !held.answer) held.answer = { ...answer }
  }

  async unanswered(now: number, limit: number): Promise<UnansweredKey[]> {
    return [...this.#records]
      .filter(([, record]) => !record.answer && record.expiresAt > now)
      .sort(([, a], [, b]) => a.takenAt - b.takenAt)
      .slice(0, limit)
      .map(([key, record]) => ({ key, record: structuredClone(record) }))
  }

  async release(key: string): Promise<void> {
    this.#records.delete(key)
  }

  async ping(): Promise<void> {}

  async prune(now: number): Promise<number> {
    let pruned = 0
    for (const [key, record] of this.#records) {
      if (record.expiresAt > now) continue
      this.#records.delete(key)
      pruned++
    }
    return pruned
  }
}
