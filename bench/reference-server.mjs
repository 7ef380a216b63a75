// The bound: a bare node:http server that keeps the items in memory and hands out cached JSON
// bytes. No validation, no persistence, no logging. Each item's bytes are cached, and so are the
// list's; a write serialises only the item it touches and rebuilds the list with one copy.
// For the sync features: strong tags and 304, the list compressed once per change, and an event
// stream at /items/events (reference-sync.mjs).
//
//   node bench/reference-server.mjs <documents.json>   (prints "listening on <port>")
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import {
  answerHeaders,
  CompressedList,
  EventStreams,
  nextTag,
  pickCoding,
} from './reference-sync.mjs'

const open = Buffer.from('[')
const comma = Buffer.from(',')
const close = Buffer.from(']')
const notFound = Buffer.from('{"error":"not found"}')

/** Each item, its serialised bytes and tag, by public id, in insertion order. */
const items = new Map()
let list = Buffer.alloc(0)
let listTag = ''
let nextKey = 0
const compressed = new CompressedList()
const events = new EventStreams()

const entry = (document) => ({
  document,
  bytes: Buffer.from(JSON.stringify(document)),
  etag: nextTag(`${document._id}-`),
})

function listChanged() {
  listTag = nextTag()
  compressed.changed(list, listTag)
}

function objectId() {
  return `67000000c0c0c0c0c0${(nextKey++).toString(16).padStart(6, '0')}`
}

function rebuildList() {
  const parts = [open]
  for (const { bytes } of items.values()) {
    if (parts.length > 1) parts.push(comma)
    parts.push(bytes)
  }
  parts.push(close)
  list = Buffer.concat(parts)
  listChanged()
}

for (const document of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
  items.set(document.id, entry(document))
  nextKey++
}
rebuildList()
compressed.get('br')
compressed.get('gzip')

function send(res, status, body) {
  res.writeHead(status, ['content-type', 'application/json', 'content-length', body.length])
  res.end(body)
}

/** A polled read: 304 to an If-None-Match of exactly its tag, else the bytes with the tag. */
function sendTagged(req, res, body, etag, vary = false) {
  if (req.headers['if-none-match'] === etag)
    return res.writeHead(304, answerHeaders(etag, vary)).end()
  res.writeHead(200, [
    'content-type',
    'application/json',
    'etag',
    etag,
    'content-length',
    body.length,
  ])
  res.end(body)
}

function sendList(req, res) {
  const coding = pickCoding(req.headers['accept-encoding'])
  if (coding === null) return sendTagged(req, res, list, listTag, true)
  const { body, etag } = compressed.get(coding)
  if (req.headers['if-none-match'] === etag)
    return res.writeHead(304, answerHeaders(etag, true)).end()
  const headers = answerHeaders(etag, true)
  headers['content-type'] = 'application/json'
  headers['content-encoding'] = coding
  headers['content-length'] = body.length
  res.writeHead(200, headers).end(body)
}

function readBody(req, then) {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => then(JSON.parse(Buffer.concat(chunks).toString())))
}

const server = createServer((req, res) => {
  const { method, url } = req
  if (url === '/items') {
    if (method === 'GET') return sendList(req, res)
    if (method === 'POST') {
      return readBody(req, (item) => {
        const created = entry({ _id: objectId(), ...item })
        const { bytes } = created
        items.set(item.id, created)
        // Appending needs no rebuild: the old list without its ']', a comma, the item, ']'.
        list =
          items.size === 1
            ? Buffer.concat([open, bytes, close])
            : Buffer.concat([list.subarray(0, list.length - 1), comma, bytes, close])
        listChanged()
        events.publish('created', bytes)
        send(res, 201, list)
      })
    }
  } else if (url === '/items/events' && method === 'GET') {
    return events.follow(res)
  } else if (url.startsWith('/items/')) {
    const id = decodeURIComponent(url.slice(7))
    const found = items.get(id)
    if (found === undefined) {
      req.resume()
      return send(res, 404, notFound)
    }
    if (method === 'GET') return sendTagged(req, res, found.bytes, found.etag)
    if (method === 'PUT') {
      return readBody(req, (fields) => {
        const updated = entry({ ...found.document, ...fields })
        items.set(id, updated)
        rebuildList()
        events.publish('updated', updated.bytes)
        send(res, 200, list)
      })
    }
    if (method === 'DELETE') {
      items.delete(id)
      rebuildList()
      events.publish('deleted', found.bytes)
      return send(res, 200, list)
    }
  }
  req.resume()
  send(res, 404, notFound)
})

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`)
})
const stop = () => server.close(() => process.exit(0)) && server.closeAllConnections()
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
