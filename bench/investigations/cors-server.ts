// One small JSON answer behind the kit's request log and either the kit's cors() or hono's
// cors() with the same policy: what `bench/investigations/cors.mjs` compares.
//
//   node <bundle> kit|hono   (prints "listening on <port>")
import { serve } from '@hono/node-server'
import { jsonBytes } from '@movies-and-mail/http-kit/app'
import { cors as honoCors } from 'hono/cors'
import { createPlainServiceApp } from '../../packages/http-kit/src/plain-service-app.js'

const policy = honoCors({
  origin: '*',
  allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  allowHeaders: ['content-type', 'idempotency-key', 'x-apikey', 'x-request-id'],
  exposeHeaders: ['idempotent-replayed', 'location', 'retry-after', 'x-request-id'],
  maxAge: 600,
})
// The kit's pipeline (request id, nosniff, its CORS, the line) on both; `hono` adds hono's cors()
// on top, so that what it costs is the difference.
const app = createPlainServiceApp({ log: () => {}, corsOrigins: ['*'], apiKeys: [] })
if (process.argv[2] === 'hono') app.use(policy)
const item = { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }
const body = new TextEncoder().encode(JSON.stringify(item))
app.get('/item', (c) => jsonBytes(c, body, 200))

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, ({ port }) => {
  console.log(`listening on ${port}`)
})
