import type { Change, Effect } from './live-list.js'

type Counts = Record<Exclude<Effect, null>, number>

/** How long after this tab's write its own change may still come from the feed. */
const echoMs = 5000

/**
 * Tells a screen-reader user what others changed in the list, without a flood: one sentence
 * once the feed has been quiet for a moment ("Changed elsewhere: 2 movies added, 1 updated"),
 * and nothing for the echo of this tab's own writes, which it announces itself.
 */
export class RemoteNotice {
  readonly #announce: (message: string) => void
  readonly #quietMs: number
  #counts: Counts = { added: 0, changed: 0, removed: 0 }
  #timer: ReturnType<typeof setTimeout> | undefined
  /**
   * The changes this tab's writes will bring back (`created:<id>`, `updated:<_id>`,
   * `deleted:<_id>`), each until when it counts as ours; each is taken by the first that comes.
   */
  readonly #own = new Map<string, number>()

  constructor(announce: (message: string) => void, quietMs = 1500) {
    this.#announce = announce
    this.#quietMs = quietMs
  }

  /**
   * A write of this tab is under way; call what it returns when it is answered. What others
   * changed is said now, so that it never comes after, and over, what this write says.
   */
  expect(keys: string[]): () => void {
    this.#sayPending()
    for (const key of keys) this.#own.set(key, Number.POSITIVE_INFINITY)
    return () => {
      // A change that came before the response was taken already.
      for (const key of keys) if (this.#own.has(key)) this.#own.set(key, Date.now() + echoMs)
    }
  }

  /** Counts a change the feed brought, unless it is this tab's own or changed nothing shown. */
  note({ type, item }: Change, effect: Effect): void {
    const own = this.#takeOwn(type === 'created' ? `created:${item.id}` : `${type}:${item._id}`)
    if (!effect || own) return
    this.#counts[effect] += 1
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => this.#say(), this.#quietMs)
  }

  stop(): void {
    clearTimeout(this.#timer)
  }

  #sayPending(): void {
    if (this.#timer === undefined) return
    clearTimeout(this.#timer)
    this.#say()
  }

  #takeOwn(key: string): boolean {
    const until = this.#own.get(key)
    this.#own.delete(key)
    return until !== undefined && until > Date.now()
  }

  #say(): void {
    this.#timer = undefined
    const { added, changed, removed } = this.#counts
    this.#counts = { added: 0, changed: 0, removed: 0 }
    const parts = [
      [added, 'added'],
      [changed, 'updated'],
      [removed, 'removed'],
    ] as const
    const said = parts
      .filter(([count]) => count > 0)
      .map(([count, what], index) =>
        index > 0 ? `${count} ${what}` : `${count} ${count === 1 ? 'movie' : 'movies'} ${what}`,
      )
    if (said.length === 0) return
    this.#announce(`Changed elsewhere: ${said.join(', ')}`)
  }
}
