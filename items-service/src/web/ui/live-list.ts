import type { Item, ItemChange } from './items-api.js'

/** A change the service's feed reported: the item as it is now (as it was, for a delete). */
export type Change = Pick<ItemChange, 'type' | 'item'>

/** What a change did to the shown list. */
export type Effect = 'added' | 'changed' | 'removed' | null

/** Changes kept for replay onto a list whose request was under way when they came. */
const logLimit = 1000

/**
 * The movies the page shows, kept current by the feed: only those of the chosen genre (none
 * chosen: all), in insertion order, an updated movie in its place. A list the service answered
 * (`adopt`) may predate changes that came while it was on its way, so those are applied again
 * on top of it: each sets a movie's state, so the last one for a movie wins either way.
 * A held movie (being edited) stays shown even when the feed deletes it or moves it out of the
 * genre, until it is released: an edit in progress is not taken from under the user.
 */
export class LiveList {
  #items: Item[] | null = null
  #genre = ''
  #genres = new Set<string>()
  /** Held movies by `_id`, each as last known (it may be gone from `#items`). */
  readonly #held = new Map<string, Item>()
  #log: Change[] = []
  /** How many changes came before the first kept in `#log`. */
  #logStart = 0

  /** The chosen genre; empty for all. */
  get genre(): string {
    return this.#genre
  }

  /** Chooses the genre; the list is then unknown until the service's answer is adopted. */
  set genre(genre: string) {
    this.#genre = genre
    this.#genres.add(genre)
  }

  /** The genres known to exist, sorted, the chosen one included. */
  get genres(): string[] {
    return [...this.#genres].filter(Boolean).sort((a, b) => a.localeCompare(b))
  }

  /** Where the feed is now: pass it to `adopt` with the response of a request sent after it. */
  mark(): number {
    return this.#logStart + this.#log.length
  }

  /**
   * Takes a list the service answered (the whole list, or one genre's) for the chosen genre,
   * then applies again the changes that came since `mark`.
   */
  adopt(answer: Item[], mark: number, { whole }: { whole: boolean }): void {
    if (whole) this.#genres = new Set(answer.map((item) => item.genre))
    else for (const item of answer) this.#genres.add(item.genre)
    this.#genres.add(this.#genre)
    this.#items = answer.filter((item) => this.#shows(item))
    for (const change of this.#log.slice(Math.max(0, mark - this.#logStart))) this.#apply(change)
  }

  /** Applies a change of the feed; says what it did to the list (null: nothing to see). */
  apply(change: Change): Effect {
    this.#log.push(change)
    if (this.#log.length > logLimit) {
      this.#log.shift()
      this.#logStart += 1
    }
    if (change.type !== 'deleted') this.#genres.add(change.item.genre)
    const effect = this.#apply(change)
    // With every movie shown, the genres are exactly theirs: a genre whose last movie left goes.
    if (this.#genre === '' && this.#items) {
      this.#genres = new Set(this.#items.map((item) => item.genre))
    }
    return effect
  }

  /** Keeps a movie shown whatever the feed says, until `release`. */
  hold(movie: Item): void {
    this.#held.set(movie._id, movie)
  }

  release(_id: string): void {
    this.#held.delete(_id)
  }

  /** The list to show: null until a list was adopted. */
  view(): Item[] | null {
    if (!this.#items) return null
    const shown = [...this.#items]
    for (const [_id, movie] of this.#held) {
      if (shown.some((item) => item._id === _id)) continue
      // Back in its place: insertion order is the order of `_id`s.
      const after = shown.findIndex((item) => item._id > _id)
      shown.splice(after < 0 ? shown.length : after, 0, movie)
    }
    return shown
  }

  #shows(item: Item): boolean {
    return this.#genre === '' || item.genre === this.#genre
  }

  #apply({ type, item }: Change): Effect {
    if (this.#held.has(item._id) && type !== 'deleted') this.#held.set(item._id, item)
    const items = this.#items
    if (!items) return null
    const index = items.findIndex((listed) => listed._id === item._id)
    if (type === 'deleted' || !this.#shows(item)) {
      if (index < 0) return null
      items.splice(index, 1)
      return 'removed'
    }
    if (index >= 0) {
      if (JSON.stringify(items[index]) === JSON.stringify(item)) return null
      items[index] = item
      return 'changed'
    }
    const after = items.findIndex((listed) => listed._id > item._id)
    items.splice(after < 0 ? items.length : after, 0, item)
    return 'added'
  }
}
