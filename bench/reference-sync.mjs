// What the bound needs for the sync features, kept bare: the list's tag and its compressed bytes
// (made once per change of the list, with node:zlib, on first ask), and a fan-out of change events to open
// Server-Sent Events answers. Loaded by reference-server.mjs.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const boot = Date.now().toString(16)
let version = 0

/** A new strong tag, as items-service shapes them: `"<hex>-<counter>"`, after `prefix`. */
export const nextTag = (prefix = '') => `"${prefix}${boot}-${++version}"`

let requestIds = 0
/**
 * The headers items-service gives a 304 or a compressed answer of the polled reads (the list's
 * with `Vary`), so that the bound's carry the same names and about the same bytes.
 */
export function answerHeaders(etag, vary = false) {
  const headers = {
    'x-content-type-options': 'nosniff',
    'x-request-id': `${boot}-${++requestIds}`,
    'access-control-allow-origin': '*',
    'access-control-expose-headers':
      'etag, idempotent-replayed, link, location, retry-after, x-request-id',
  }
  if (vary) headers.vary = 'Accept-Encoding'
  headers.etag = etag
  return headers
}

// The levels items-service uses (brotli quality 5, gzip 6), so that both send the same bytes.
const codings = {
  br: (bytes) =>
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes) => gzipSync(bytes, { level: 6 }),
}

/**
 * The coding to answer an `Accept-Encoding` with: br first, then gzip, else none. Bare on
 * purpose: a token match, no q-values.
 */
export function pickCoding(accept) {
  if (accept === undefined) return null
  if (accept.includes('br')) return 'br'
  if (accept.includes('gzip')) return 'gzip'
  return null
}

/** The list's compressed bytes and tags, made at most once per version of the list. */
export class CompressedList {
  #made = new Map()
  #list = Buffer.alloc(0)
  #etag = ''

  /** The list changed: forget the compressed bytes (made again on the next ask). */
  changed(list, etag) {
    this.#list = list
    this.#etag = etag
    this.#made.clear()
  }

  /** `{ body, etag }` of the list in `coding`. */
  get(coding) {
    let made = this.#made.get(coding)
    if (made === undefined) {
      made = { body: codings[coding](this.#list), etag: `${this.#etag.slice(0, -1)}-${coding}"` }
      this.#made.set(coding, made)
    }
    return made
  }
}

/** Open event streams and the id of the latest event; each change is written to all of them. */
export class EventStreams {
  #open = new Set()
  #lastId = Date.now() * 1000

  constructor(heartbeatMs = 15_000) {
    setInterval(() => this.#write(Buffer.from(':\n\n')), heartbeatMs).unref()
  }

  /** Answers `res` with an event stream that starts with the latest id. */
  follow(res) {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': '*',
    })
    res.write(`id: ${this.#lastId}\n\n`)
    this.#open.add(res)
    res.on('close', () => this.#open.delete(res))
  }

  /** One event, serialised once, written to every open stream. */
  publish(kind, itemBytes) {
    this.#lastId++
    if (this.#open.size === 0) return
    const head = Buffer.from(`event: ${kind}\nid: ${this.#lastId}\ndata: `)
    this.#write(Buffer.concat([head, itemBytes, Buffer.from('\n\n')]))
  }

  #write(frame) {
    for (const res of this.#open) res.write(frame)
  }
}
