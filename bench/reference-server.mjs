// The bound: a bare node:http server that keeps the items in memory and hands out cached JSON
// bytes. No validation, no persistence, no logging. Each item's bytes are cached, and so are the
// list's; a write serialises only the item it touches and rebuilds the list with one copy.
//
//   node bench/reference-server.mjs <documents.json>   (prints "listening on <port>")
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const open = Buffer.from('[')
const comma = Buffer.from(',')
const close = Buffer.from(']')
const notFound = Buffer.from('{"error":"not found"}')

/** Each item, and its serialised bytes, by public id, in insertion order. */
const items = new Map()
let list = Buffer.alloc(0)
let nextKey = 0

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
}

for (const document of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
  items.set(document.id, { document, bytes: Buffer.from(JSON.stringify(document)) })
  nextKey++
}
rebuildList()

function send(res, status, body) {
  res.writeHead(status, ['content-type', 'application/json', 'content-length', body.length])
  res.end(body)
}

function readBody(req, then) {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => then(JSON.parse(Buffer.concat(chunks).toString())))
}

const server = createServer((req, res) => {
  const { method, url } = req
  if (url === '/items') {
    if (method === 'GET') return send(res, 200, list)
    if (method === 'POST') {
      return readBody(req, (item) => {
        const document = { _id: objectId(), ...item }
        const bytes = Buffer.from(JSON.stringify(document))
        items.set(item.id, { document, bytes })
        // Appending needs no rebuild: the old list without its ']', a comma, the item, ']'.
        list =
          items.size === 1
            ? Buffer.concat([open, bytes, close])
            : Buffer.concat([list.subarray(0, list.length - 1), comma, bytes, close])
        send(res, 201, list)
      })
    }
  } else if (url.startsWith('/items/')) {
    const id = decodeURIComponent(url.slice(7))
    const entry = items.get(id)
    if (entry === undefined) {
      req.resume()
      return send(res, 404, notFound)
    }
    if (method === 'GET') return send(res, 200, entry.bytes)
    if (method === 'PUT') {
      return readBody(req, (fields) => {
        const document = { ...entry.document, ...fields }
        items.set(id, { document, bytes: Buffer.from(JSON.stringify(document)) })
        rebuildList()
        send(res, 200, list)
      })
    }
    if (method === 'DELETE') {
      items.delete(id)
      rebuildList()
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
