/** An answer kept for a conditional read: its body as text, its `ETag` and its `Link`. */
export type KeptAnswer = { etag: string; text: string; link: string | null }

/** How much an `AnswerCache` keeps at most. */
export type CacheBounds = { maxEntries: number; maxChars: number }

/**
 * The last answer of each path read, with its tag, to send as `If-None-Match`. It keeps at
 * most `maxEntries` answers and `maxChars` characters of bodies, dropping the least recently
 * used first; an answer larger than `maxChars` alone is not kept. Bodies are kept as text, so
 * that each call parses its own copy: what a caller does to its result changes no later one.
 */
export class AnswerCache {
  readonly #entries = new Map<string, KeptAnswer>()
  readonly #bounds: CacheBounds
  #chars = 0

  constructor(bounds: CacheBounds = { maxEntries: 100, maxChars: 8 * 1024 * 1024 }) {
    this.#bounds = bounds
  }

  /** The answer kept for `path`, now the most recently used. */
  get(path: string): KeptAnswer | undefined {
    const kept = this.#entries.get(path)
    if (kept === undefined) return undefined
    this.#entries.delete(path)
    this.#entries.set(path, kept)
    return kept
  }

  /** Keeps `answer` as the one of `path`, in place of any before. */
  keep(path: string, answer: KeptAnswer): void {
    this.#drop(path)
    if (answer.text.length > this.#bounds.maxChars) return
    this.#entries.set(path, answer)
    this.#chars += answer.text.length
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#bounds.maxEntries && this.#chars <= this.#bounds.maxChars) {
        break
      }
      this.#drop(oldest)
    }
  }

  /** Drops the answers `stale` picks by their path and what is kept (every one without it). */
  forget(stale: (path: string, kept: KeptAnswer) => boolean = () => true): void {
    for (const [path, kept] of [...this.#entries]) if (stale(path, kept)) this.#drop(path)
  }

  #drop(path: string): void {
    const kept = this.#entries.get(path)
    if (kept === undefined) return
    this.#entries.delete(path)
    this.#chars -= kept.text.length
  }
}
