import { blobBodyBytes, worthABlob } from '@movies-and-mail/http-kit/workers-runtime'

/** Where an item's bytes sit in the list buffer. */
type Span = { start: number; end: number }

/**
 * Items as an engine can read them at once: their JSON array, and each item's key and length in
 * bytes there, in list order.
 */
export type JoinedItems = {
  list: Uint8Array<ArrayBuffer>
  lengths: readonly (readonly [key: string, bytes: number])[]
}

/** How many items read since the list last changed keep what a read answers, before it starts over. */
const keptReads = 4096

const open = Buffer.from('[')
const comma = Buffer.from(',')
const close = Buffer.from(']')

/**
 * A JSON array of serialised items kept as one buffer, with each item's place in it, so that
 * the list and any one item are served without serialising or copying anything, and memory
 * holds each item's bytes once. A new item is appended with one copy of the list; replaced and
 * removed items are collected and the list is rebuilt, once, when it is next read.
 *
 * Once the list is read as a `Blob` (`shared`, as a Worker's object answers it), a new item is
 * written in place instead, into room kept after the list (lists up to `blobBodyBytes.upTo`):
 * the Blob is the list's one copy per change, made when it is first asked for, and the runtime
 * answers every request from it without another. Nothing handed out is written over: `bytes`
 * then hands out a copy, and an item's bytes sit before any place an append writes to.
 *
 * Entity tags cost nothing per read: a version counts the list's changes, each item keeps the
 * version at which it last changed, and a random epoch drawn at each start keeps a tag of an
 * earlier process (whose counter started over) from naming these bytes.
 */
export class JsonListCache {
  /** The list from its start; with room after it once items are appended in place. */
  #list: Buffer<ArrayBuffer> = Buffer.from('[]')
  /** How many of `#list`'s bytes the list is. */
  #length = 2
  /** The list as `bytes` hands it out while `#list` has room after it: a copy, per version. */
  #copy: Buffer | undefined
  /** The list as `shared` hands it out, per version. */
  #blob: Blob | undefined
  /** Whether the list is read as a Blob: new items are then appended in place. */
  #sharedAsBlob = false
  /** Every item's span, in list order; a span of -1 is an item added since the last build. */
  readonly #spans = new Map<string, Span>()
  /** Items replaced (new bytes) or removed (null) since the list was last built. */
  readonly #changed = new Map<string, Uint8Array | null>()
  readonly #epoch = Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString('hex')
  #version = 0
  #listTag = ''
  /** The version at which each item last changed; absent: as loaded. */
  readonly #changedAt = new Map<string, number>()
  /** What `tagged` answered for each item read since the list last changed or was rebuilt. */
  readonly #read = new Map<string, Readonly<{ body: Uint8Array; etag: string }>>()

  /**
   * Starts from items serialised one at a time, in order, keyed by a stable key. Each item's
   * JSON is copied into the list as it comes and then dropped, so that loading many items
   * leaves no large garbage behind (and a buffer the caller reuses may be passed).
   */
  constructor(items: Iterable<[key: string, json: string | Uint8Array]>) {
    let list = Buffer.allocUnsafe(64 * 1024)
    let position = 1
    for (const [key, json] of items) {
      const room = (typeof json === 'string' ? json.length * 3 : json.byteLength) + 2
      if (position + room > list.length) {
        const larger = Buffer.allocUnsafe(Math.max(list.length * 2, position + room))
        list.copy(larger, 0, 0, position)
        list = larger
      }
      if (this.#spans.size > 0) position = list.writeUInt8(comma[0] as number, position)
      const length = writeAt(list, json, position)
      this.#spans.set(key, { start: position, end: position + length })
      position += length
    }
    list[0] = open[0] as number
    list[position] = close[0] as number
    this.#list = Buffer.from(list.subarray(0, position + 1))
    this.#length = this.#list.length
    this.#bump()
  }

  /**
   * Starts from the list as one JSON array and each item's length in it: the spans are counted,
   * nothing is copied.
   * @throws Error when an item is not a JSON object, or the lengths do not fill the array
   */
  static joined({ list, lengths }: JoinedItems): JsonListCache {
    const disagree = new Error("the stored list and its items' lengths do not agree")
    const cache = new JsonListCache([])
    if (list[0] !== open[0]) throw disagree
    let position = 1
    for (const [key, bytes] of lengths) {
      if (cache.#spans.size > 0 && list[position++] !== comma[0]) throw disagree
      const span = { start: position, end: position + bytes }
      if (list[span.start] !== 0x7b || list[span.end - 1] !== 0x7d) {
        throw new Error(`item ${key} is not a JSON object`)
      }
      cache.#spans.set(key, span)
      position = span.end
    }
    if (list[position] !== close[0] || position + 1 !== list.length) throw disagree
    cache.#list = Buffer.from(list.buffer, list.byteOffset, list.byteLength)
    cache.#length = list.length
    return cache
  }

  /** Whether an item of this key is in the list. */
  has(key: string): boolean {
    return this.#spans.has(key) && this.#changed.get(key) !== null
  }

  /** How many items the list holds. */
  get size(): number {
    return this.#spans.size - [...this.#changed.values()].filter((json) => json === null).length
  }

  /** The list's strong entity tag, quoted: it changes whenever the list does. */
  listTag(): string {
    return this.#listTag
  }

  /** An item's strong entity tag, quoted, or undefined: it changes whenever its bytes do. */
  tagOf(key: string): string | undefined {
    if (!this.#spans.has(key) || this.#changed.get(key) === null) return undefined
    return `"${key}-${this.#epoch}-${this.#changedAt.get(key) ?? 0}"`
  }

  /**
   * An item's bytes and tag as a read answers them, or undefined: one record for every read of
   * it until the list changes, since clients poll the same items again and again.
   */
  tagged(key: string): Readonly<{ body: Uint8Array; etag: string }> | undefined {
    const kept = this.#read.get(key)
    if (kept !== undefined) return kept
    const body = this.get(key)
    if (body === undefined) return undefined
    const made = Object.freeze({ body, etag: this.tagOf(key) as string })
    if (this.#read.size >= keptReads) this.#read.clear()
    this.#read.set(key, made)
    return made
  }

  #bump(key?: string): void {
    this.#read.clear()
    this.#copy = undefined
    this.#blob = undefined
    this.#version += 1
    this.#listTag = `"${this.#epoch}-${this.#version}"`
    if (key !== undefined) this.#changedAt.set(key, this.#version)
  }

  /** One item's bytes, or undefined. */
  get(key: string): Uint8Array | undefined {
    const changed = this.#changed.get(key)
    if (changed !== undefined) return changed ?? undefined
    const span = this.#spans.get(key)
    return span ? this.#list.subarray(span.start, span.end) : undefined
  }

  /** Adds an item at the end. */
  append(key: string, json: Uint8Array): void {
    this.#bump(key)
    if (this.#changed.size > 0) {
      this.#spans.set(key, { start: -1, end: -1 })
      this.#changed.set(key, json)
      return
    }
    const empty = this.#spans.size === 0
    const start = this.#length - 1 + (empty ? 0 : 1)
    const length = start + json.length + 1
    if (!this.#sharedAsBlob || length > blobBodyBytes.upTo) {
      const before = this.#list.subarray(0, this.#length - 1)
      this.#list = Buffer.concat(empty ? [open, json, close] : [before, comma, json, close])
    } else {
      if (length > this.#list.length) {
        // Room for the items to come: half the list again, from 64 KiB to 1 MiB.
        const room = Math.min(Math.max(length >> 1, 64 * 1024), 1024 * 1024)
        const larger = Buffer.allocUnsafe(length + room)
        this.#list.copy(larger, 0, 0, this.#length - 1)
        this.#list = larger
      }
      // Over the closing bracket, which only the list's latest bytes hold: `bytes` and `shared`
      // hand out copies of a list that has room after it.
      if (!empty) this.#list[start - 1] = comma[0] as number
      this.#list.set(json, start)
      this.#list[length - 1] = close[0] as number
    }
    this.#length = length
    this.#spans.set(key, { start, end: start + json.length })
  }

  /** Replaces an item's bytes, keeping its place. */
  replace(key: string, json: Uint8Array): void {
    if (!this.#spans.has(key)) return
    this.#changed.set(key, json)
    this.#bump(key)
  }

  remove(key: string): void {
    if (!this.#spans.has(key)) return
    this.#changed.set(key, null)
    this.#changedAt.delete(key)
    this.#bump()
  }

  /** The whole list as one JSON array. */
  bytes(): Buffer {
    if (this.#changed.size > 0) this.#rebuild()
    if (this.#length === this.#list.length) return this.#list
    this.#copy ??= Buffer.from(this.#list.subarray(0, this.#length))
    return this.#copy
  }

  /** The list's size in bytes. */
  get byteLength(): number {
    if (this.#changed.size > 0) this.#rebuild()
    return this.#length
  }

  /**
   * The whole list as one `Blob` (a copy, made once per version), which a `Response` on the
   * Workers runtime sends without copying it again; a list not `worthABlob` as `bytes`.
   */
  shared(): Blob | Buffer {
    this.#sharedAsBlob = true
    if (!worthABlob(this.byteLength)) return this.bytes()
    this.#blob ??= new Blob([this.#list.subarray(0, this.#length)])
    return this.#blob
  }

  /**
   * Builds the list anew from the old one and the changes. Unchanged items that stood next to
   * each other are copied as one run, so the work grows with the number of changes and the
   * bytes, not with the number of items.
   */
  #rebuild(): void {
    const old = this.#list
    const parts: Uint8Array[] = [open]
    let position = 1
    let runFrom = -1
    let runTo = -1
    let count = 0
    const endRun = () => {
      if (runFrom >= 0) parts.push(old.subarray(runFrom, runTo))
      runFrom = -1
    }
    for (const [key, span] of this.#spans) {
      const changed = this.#changed.get(key)
      if (changed === null) {
        this.#spans.delete(key)
        continue
      }
      const length = changed ? changed.length : span.end - span.start
      if (changed === undefined && runFrom >= 0 && span.start === runTo + 1) {
        runTo = span.end // the comma before it is copied with the run
      } else {
        endRun()
        if (count > 0) parts.push(comma)
        if (changed) parts.push(changed)
        else [runFrom, runTo] = [span.start, span.end]
      }
      if (count > 0) position += 1
      span.start = position
      span.end = position + length
      position = span.end
      count += 1
    }
    endRun()
    parts.push(close)
    this.#list = Buffer.concat(parts, position + 1)
    this.#length = this.#list.length
    this.#changed.clear()
    // What reads kept are views of the list before: let it go.
    this.#read.clear()
  }
}

/** Writes `json` into `list` at `position`; returns how many bytes it took. */
function writeAt(list: Buffer, json: string | Uint8Array, position: number): number {
  if (typeof json === 'string') return list.write(json, position)
  list.set(json, position)
  return json.byteLength
}
