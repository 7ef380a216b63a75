// What Hono itself costs per answer: a Hono app on @hono/node-server whose two routes answer the
// list's or an item's cached bytes, or a 304, with one plain header object, and nothing else (no
// middleware, no validation, no log). A read through any Hono app costs at least this much.
//
//   node bench/hono-floor-server.mjs <documents.json>   (prints "listening on <port>")
import { readFileSync } from 'node:fs'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const documents = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const items = new Map()
for (const document of documents) {
  items.set(document.id, {
    bytes: Buffer.from(JSON.stringify(document)),
    etag: `"${document._id}"`,
  })
}
const list = { bytes: Buffer.from(JSON.stringify(documents)), etag: `"list-${documents.length}"` }
const json = 'application/json'

const app = new Hono()
app.get('/items', (c) => {
  if (c.req.header('if-none-match') === list.etag) {
    return new Response(null, { status: 304, headers: { etag: list.etag } })
  }
  return new Response(list.bytes, {
    status: 200,
    headers: { 'content-type': json, etag: list.etag },
  })
})
app.get('/items/:id', (c) => {
  const item = items.get(c.req.param('id'))
  if (!item) return c.json({ error: 'not found' }, 404)
  return new Response(item.bytes, {
    status: 200,
    headers: { 'content-type': json, etag: item.etag },
  })
})

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, ({ port }) => {
  console.log(`listening on ${port}`)
})
process.on('SIGTERM', () => process.exit(0))
