// The bounds on the Workers runtime, as bench/reference-server.mjs is the bound on Node: the
// items in memory, answered as cached JSON bytes; no validation, no log. The documents come in as
// the `DOCUMENTS` binding (a JSON array). Bound without `ITEMS`, the Worker answers by itself and
// persists nothing; bound with it, every request goes to one Durable Object that answers the
// same way, as items-service's Worker sends every request to its collection's object, and writes
// each created item as one row of its SQLite storage before it answers (as the bare mail
// Worker's object does): a create that the object's next start would not find is not one.

const encoder = new TextEncoder()
const open = encoder.encode('[')
const close = encoder.encode(']')
const comma = encoder.encode(',')
const notFound = encoder.encode('{"error":"not found"}')

function concat(parts) {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    bytes.set(part, at)
    at += part.length
  }
  return bytes
}

const headers = { 'content-type': 'application/json' }

/**
 * Each item's bytes by public id and the list's bytes; a POST appends with one copy, and hands
 * the item's key, id and JSON to `record` before it answers.
 */
class CachedItems {
  #items = new Map()
  #list
  #nextKey = 0
  #record

  constructor(documents, { created = [], record = () => {} } = {}) {
    this.#record = record
    const parts = [open]
    const add = (document, json) => {
      const bytes = encoder.encode(json)
      if (this.#items.size > 0) parts.push(comma)
      parts.push(bytes)
      this.#items.set(document.id, bytes)
      this.#nextKey++
    }
    for (const document of JSON.parse(documents)) add(document, JSON.stringify(document))
    for (const { key, id, json } of created) add({ _id: key, id }, json)
    parts.push(close)
    this.#list = concat(parts)
  }

  async answer(request) {
    const { pathname } = new URL(request.url)
    if (pathname === '/items') {
      if (request.method === 'GET') return this.#json(200, this.#list)
      if (request.method === 'POST') {
        const list = this.#append(await request.json())
        return this.#json(201, list)
      }
    } else if (pathname.startsWith('/items/') && request.method === 'GET') {
      const found = this.#items.get(decodeURIComponent(pathname.slice(7)))
      if (found !== undefined) return this.#json(200, found)
    }
    return this.#json(404, notFound)
  }

  #json(status, body) {
    return new Response(body, { status, headers })
  }

  #append(item) {
    const key = `67000000c0c0c0c0c0${(this.#nextKey++).toString(16).padStart(6, '0')}`
    const json = JSON.stringify({ _id: key, ...item })
    this.#record(key, item.id, json)
    const bytes = encoder.encode(json)
    this.#items.set(item.id, bytes)
    const list = this.#list
    this.#list =
      list.length === 2
        ? concat([open, bytes, close])
        : concat([list.subarray(0, list.length - 1), comma, bytes, close])
    return this.#list
  }
}

/** The object the Worker sends every request to when `ITEMS` is bound. */
export class ItemsObject {
  #items

  constructor(state, env) {
    const { sql } = state.storage
    sql.exec(
      'CREATE TABLE IF NOT EXISTS items (key TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, json TEXT NOT NULL)',
    )
    // The runtime evicts an object that has been idle for a few seconds: the next one starts from
    // the documents and the creates its storage holds, as a service's object would.
    const created = sql.exec('SELECT key, id, json FROM items ORDER BY key').toArray()
    this.#items = new CachedItems(env.DOCUMENTS, {
      created,
      record: (key, id, json) =>
        sql.exec('INSERT INTO items (key, id, json) VALUES (?, ?, ?)', key, id, json),
    })
  }

  fetch(request) {
    return this.#items.answer(request)
  }
}

let items

export default {
  fetch(request, env) {
    if (env.ITEMS) return env.ITEMS.get(env.ITEMS.idFromName('movies')).fetch(request)
    items ??= new CachedItems(env.DOCUMENTS)
    return items.answer(request)
  },
}
