import { type Item, ItemsApiError, type ItemsClient, type TaggedItem } from './items-api.js'

/** A movie as the service has it, with its ETag; `item` null when it is gone. */
export type Version = TaggedItem | { item: null; etag?: undefined }

/** Reads a movie's current version; rejects when it could not be read. */
export type ReadVersion = (id: string) => Promise<Version>

/**
 * A write not made since the movie changed elsewhere: it as it is now, `gone` when deleted,
 * `unknown` when it could not be read again.
 */
export type Conflict = { now: Item | 'gone' | 'unknown' }

const isStatus = (error: unknown, status: number) =>
  error instanceof ItemsApiError && error.status === status

/** Reads a movie and its ETag by its id. */
export function versionReader(items: ItemsClient): ReadVersion {
  return async (id) => {
    try {
      return await items.read(id)
    } catch (error) {
      if (isStatus(error, 404)) return { item: null }
      throw error
    }
  }
}

/** Fields the page shows and edits: a difference there is one the user did not see. */
const sameShown = (a: Item, b: Item) => a.id === b.id && a.name === b.name && a.genre === b.genre

/**
 * The version of a movie an edit or a delete starts from. Opening the editor (or the delete
 * question) reads the movie and its ETag; the write then carries it as `ifMatch`, so a change
 * made elsewhere in the meantime is refused (412) instead of overwritten. The read may already
 * be newer than the row the user saw (its change still on its way from the feed): the write is
 * then not sent at all. Either way the user is shown the movie as it is now, and writing again
 * applies to that version. A write whose version could not be read is not sent either: it
 * could overwrite a change unseen, so the user is told why nothing was written.
 */
export class EditBase {
  readonly #read: ReadVersion
  /** The movie as the user last saw it. */
  #seen: Item
  #version: Promise<Version>

  constructor(read: ReadVersion, seen: Item) {
    this.#read = read
    this.#seen = seen
    this.#version = this.#readVersion(seen.id)
  }

  /**
   * Sends a write of this movie (`send` gets the id to address and the ETag for `ifMatch`);
   * answers the list it answered, or the movie as it is now when it changed since the user saw
   * it. `latestId`: its id as the list shows it now, to read it again after a refusal.
   */
  async write(
    send: (id: string, ifMatch: string | undefined) => Promise<Item[]>,
    latestId: string,
  ): Promise<Item[] | Conflict> {
    // The first read failed (the network, a 503): once more; failing again, it is the response.
    const version = await this.#version.catch(() => this.#readVersion(this.#seen.id))
    if (!version.item) return { now: 'gone' }
    if (!sameShown(version.item, this.#seen)) {
      this.#seen = version.item
      return { now: version.item }
    }
    try {
      return await send(version.item.id, version.etag)
    } catch (error) {
      if (!isStatus(error, 412)) throw error
    }
    const now = await this.#readVersion(latestId).catch(() => undefined)
    if (!now) return { now: 'unknown' }
    if (!now.item) return { now: 'gone' }
    this.#seen = now.item
    return { now: now.item }
  }

  /** Reads the version a later write starts from; a failure waits for that write to see it. */
  #readVersion(id: string): Promise<Version> {
    this.#version = this.#read(id)
    // Handled here too: a question closed without a write never looks at it.
    this.#version.catch(() => {})
    return this.#version
  }
}
