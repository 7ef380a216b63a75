/** What happened to an item. */
export type ChangeKind = 'created' | 'updated' | 'deleted'

/**
 * One event of the feed: a change with the item's JSON (as it is now; as it was, for a delete),
 * or `reload`: changes were lost (the buffer's history is gone), read the list anew.
 */
export type FeedEvent = { id: string; kind: ChangeKind | 'reload'; data: Uint8Array }

/** Someone following the feed: told each event as it is published, and when the feed ends. */
export type Subscriber = { event: (event: FeedEvent) => void; end: () => void }

export type ChangeFeedOptions = {
  /** How many of the latest events are kept for replay. */
  capacity?: number
  /** At most this many bytes of event data are kept for replay (the newest event always is). */
  maxBytes?: number
}

const encoder = new TextEncoder()

/**
 * A store's changes, in order, to everyone who follows them, with a bounded buffer of the
 * latest for a follower that reconnects (`since`). Ids are the store's (MongoDB's resume tokens)
 * or, when it gives none, made here: decimal numbers that increase, starting from the clock in
 * microseconds, so that an id of an earlier process is never taken for one of this process.
 */
export class ChangeFeed {
  readonly #capacity: number
  readonly #maxBytes: number
  readonly #buffer: FeedEvent[] = []
  #bufferedBytes = 0
  /** The id of the event just before the oldest kept one: a follower there misses nothing. */
  #floor: string
  #lastId: string
  #counter = Date.now() * 1000
  readonly #subscribers = new Set<Subscriber>()
  #ended = false
  #sent = 0

  constructor({ capacity = 1000, maxBytes = 1024 * 1024 }: ChangeFeedOptions = {}) {
    this.#capacity = capacity
    this.#maxBytes = maxBytes
    this.#lastId = String(this.#counter)
    this.#floor = this.#lastId
  }

  /** The id of the latest event (or of the feed's start): a follower there has seen everything. */
  get lastId(): string {
    return this.#lastId
  }

  /** How many follow the feed now. */
  get followers(): number {
    return this.#subscribers.size
  }

  /** How many events followers were handed, live or replayed since the start: for metrics. */
  get eventsSent(): number {
    return this.#sent
  }

  /** Tells every follower of a change; `id` is the store's, or one is made. */
  publish(kind: ChangeKind, data: Uint8Array, id?: string): void {
    this.#emit({ id: id ?? this.#nextId(), kind, data })
  }

  /**
   * Forgets every kept event and tells followers to read the list anew: for when the store
   * cannot say what changed (its own history of changes was lost).
   */
  reload(reason: string, id?: string): void {
    this.#buffer.length = 0
    this.#bufferedBytes = 0
    const event: FeedEvent = {
      id: id ?? this.#nextId(),
      kind: 'reload',
      data: encoder.encode(JSON.stringify({ reason })),
    }
    this.#floor = event.id
    this.#lastId = event.id
    for (const subscriber of this.#subscribers) this.#tell(subscriber, event)
  }

  /**
   * The events after `lastId`, oldest first; null when they are not all kept (the id is too
   * old, of another process, or not one of ours).
   */
  since(lastId: string): FeedEvent[] | null {
    const missed = this.#missedSince(lastId)
    this.#sent += missed?.length ?? 0
    return missed
  }

  #missedSince(lastId: string): FeedEvent[] | null {
    if (lastId === this.#lastId) return []
    if (lastId === this.#floor) return [...this.#buffer]
    const index = this.#buffer.findIndex((event) => event.id === lastId)
    return index < 0 ? null : this.#buffer.slice(index + 1)
  }

  /** Follows the feed until the returned function is called or the feed ends. */
  subscribe(subscriber: Subscriber): () => void {
    if (this.#ended) {
      subscriber.end()
      return () => {}
    }
    this.#subscribers.add(subscriber)
    return () => {
      this.#subscribers.delete(subscriber)
    }
  }

  /** Ends every follow (the service stops): long-lived answers must not hold the stop. */
  end(): void {
    this.#ended = true
    const subscribers = [...this.#subscribers]
    this.#subscribers.clear()
    for (const subscriber of subscribers) subscriber.end()
  }

  #nextId(): string {
    this.#counter += 1
    return String(this.#counter)
  }

  #emit(event: FeedEvent): void {
    this.#buffer.push(event)
    this.#bufferedBytes += event.data.byteLength
    while (
      this.#buffer.length > 1 &&
      (this.#buffer.length > this.#capacity || this.#bufferedBytes > this.#maxBytes)
    ) {
      const dropped = this.#buffer.shift() as FeedEvent
      this.#bufferedBytes -= dropped.data.byteLength
      this.#floor = dropped.id
    }
    this.#lastId = event.id
    for (const subscriber of this.#subscribers) this.#tell(subscriber, event)
  }

  /** One follower's failure must not keep the event from the others: it stops following. */
  #tell(subscriber: Subscriber, event: FeedEvent): void {
    try {
      this.#sent += 1
      subscriber.event(event)
    } catch {
      this.#subscribers.delete(subscriber)
      subscriber.end()
    }
  }
}
