// Hono's floor on Node: a Hono app on @hono/node-server with no middleware, whose two routes
// answer cached bytes (cached-items.mjs) with their tag in one plain header object, 304 to an
// `If-None-Match` of exactly the tag. No request id, no CORS, no log line: what lies between
// the bound and this is Hono and its adapter alone. Bundled by the bench (small-reads.mjs).
//
//   node hono-floor.js <documents.json>   (prints "listening on <port>")
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import { announce, cachedItems } from './cached-items.mjs'

const { items, list } = cachedItems(process.argv[2])
const json = 'application/json'

function answer(c, tagged) {
  if (c.req.header('if-none-match') === tagged.etag) {
    return new Response(null, { status: 304, headers: { etag: tagged.etag } })
  }
  return new Response(tagged.bytes, { headers: { 'content-type': json, etag: tagged.etag } })
}

const app = new Hono()
  .get('/items', (c) => answer(c, list))
  .get('/items/:id', (c) => {
    const tagged = items.get(c.req.param('id'))
    return tagged ? answer(c, tagged) : c.json({ error: 'not found' }, 404)
  })

const server = createAdaptorServer({ fetch: app.fetch })
announce(server)
server.listen(0, '127.0.0.1')
