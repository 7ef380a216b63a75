import {
  type ChangeStream,
  type ChangeStreamDocument,
  type ChangeStreamOptions,
  type Collection,
  type Document,
  MongoServerError,
  type ResumeToken,
} from 'mongodb'
import { ChangeFeed, type ChangeKind } from '../change-feed.js'

/** ChangeStreamHistoryLost: the oplog no longer reaches back to the resume token. */
const historyLostCode = 286

export type ChangeFollowerOptions = {
  /** The server keeps pre-images (6.0 and later): a delete then carries the item as it was. */
  preImages: boolean
  /** How long the server holds each wait for changes: below the socket timeout, or it cuts in. */
  awaitMs: number
  /** How long after a failure the stream is opened again. */
  reopenDelayMs: number
}

/** Where a stream starts: now, after a change, or after an invalidate (resumeAfter refuses one). */
type Start = { resumeAfter?: ResumeToken; startAfter?: ResumeToken }

/**
 * Follows a collection's change stream into a ChangeFeed. The server reports every write, so
 * the feed carries the writes of every instance sharing the database, each named by its resume
 * token (`_data`) so that every instance gives one change the same event id.
 *
 * The driver resumes the stream by itself once after an error it deems resumable. Past that (an
 * error it gives up on, or the collection dropped or renamed), the stream is opened again after
 * `reopenDelayMs`, from the last resume token, until `close`. When the server no longer has the
 * changes since that token, a new stream starts from now and followers are told to reload.
 */
export class MongoChangeFollower {
  readonly feed = new ChangeFeed()
  /** Resolves once the server started the first stream: each later write is followed. */
  readonly opened: Promise<void>
  readonly #items: Collection
  readonly #options: ChangeFollowerOptions
  #stream: ChangeStream | undefined
  #token: ResumeToken | undefined
  #retry: NodeJS.Timeout | undefined
  #closed = false

  constructor(items: Collection, options: ChangeFollowerOptions) {
    this.#items = items
    this.#options = options
    this.opened = new Promise((opened, failed) => void this.#follow({}, { opened, failed }))
  }

  /** Ends the feed and the stream. */
  close(): void {
    this.#closed = true
    clearTimeout(this.#retry)
    this.feed.end()
    this.#stream?.close().catch(() => {})
  }

  /**
   * Follows one stream until it fails or is invalidated, then arranges the next. `failed` is
   * told instead when the stream never opened (the first one: the store's start reports it);
   * `reload` is told to followers once it opened (after changes were lost).
   */
  async #follow(
    start: Start,
    on: { opened?: () => void; failed?: (error: unknown) => void; reload?: string },
  ): Promise<void> {
    const options: ChangeStreamOptions = {
      fullDocument: 'updateLookup',
      ...(this.#options.preImages && { fullDocumentBeforeChange: 'whenAvailable' }),
      maxAwaitTimeMS: this.#options.awaitMs,
      ...start,
    }
    let isOpen = false
    const opened = () => {
      if (isOpen || this.#closed) return
      isOpen = true
      if (on.reload) this.feed.reload(on.reload)
      on.opened?.()
    }
    try {
      const stream = this.#items.watch([], options)
      this.#stream = stream
      // The server's answer to the start carries a token: open, without waiting for a change.
      stream.on('resumeTokenChanged', (token: ResumeToken) => {
        this.#token = token
        opened()
      })
      while (!this.#closed) {
        const change = await stream.tryNext()
        opened()
        if (change?.operationType === 'invalidate') {
          // No stream resumes after an invalidate; one starts after it.
          this.#token = undefined
          await stream.close()
          // Items went without a delete each: the feed cannot say which.
          return this.#again({ startAfter: change._id }, 'the collection was dropped or renamed')
        }
        if (change) this.#publish(change)
      }
    } catch (error) {
      if (this.#closed) return
      if (!isOpen && on.failed) return on.failed(error)
      if (error instanceof MongoServerError && error.code === historyLostCode) {
        this.#token = undefined
        return this.#again({}, 'the database no longer has the changes since the last event')
      }
      // From the last token; a stream that never got one starts where it was meant to.
      this.#again(this.#token === undefined ? start : { resumeAfter: this.#token }, on.reload)
    }
  }

  #again(start: Start, reload?: string): void {
    if (this.#closed) return
    this.#retry = setTimeout(
      () => void this.#follow(start, { reload }),
      this.#options.reopenDelayMs,
    )
  }

  #publish(change: ChangeStreamDocument): void {
    const { operationType } = change
    if (operationType === 'insert') this.#tell('created', change.fullDocument, change._id)
    // No document after an update: the item was removed since, and its delete follows.
    if ((operationType === 'update' || operationType === 'replace') && change.fullDocument) {
      this.#tell('updated', change.fullDocument, change._id)
    }
    if (operationType === 'delete') {
      const item = change.fullDocumentBeforeChange ?? { _id: change.documentKey._id }
      this.#tell('deleted', item, change._id)
    }
    // A drop or rename comes before an invalidate, which reloads; other events change no item.
  }

  #tell(kind: ChangeKind, document: Document, token: ResumeToken): void {
    const id = (token as { _data?: unknown } | null)?._data
    this.feed.publish(
      kind,
      Buffer.from(JSON.stringify(document)),
      typeof id === 'string' ? id : undefined,
    )
  }
}

/** The wire version of MongoDB 6.0, the first to keep pre-images for change streams. */
export const preImagesWireVersion = 17

/** Whether the server is a replica set member or a mongos: those have change streams. */
export function hasChangeStreams(hello: Document): boolean {
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid'
}
