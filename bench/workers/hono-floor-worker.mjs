// The floor of what items-service's answers promise, on the Workers runtime: every request goes
// through a Hono app whose one middleware gives the answer the headers each of items-service's
// carries (a request id, nosniff, CORS), made with the answer in one record, and writes the
// request's log line; its routes hand the request to the bare Worker's object (bare-worker.mjs)
// and answer its bytes with those headers and the object's tag. No validation, no checks, no
// conditional GET: what is left between this and items-service is the service's own work, where
// what is between the bare Worker through an object and this is Hono, the headers and the line.

import { Hono } from 'hono'

export { ItemsObject } from './bare-worker.mjs'

const exposed = 'etag, idempotent-replayed, link, location, retry-after, x-request-id'
let answered = 0

const app = new Hono()
app.use(async (c, next) => {
  const startedAt = performance.now()
  const requestId = `f1f1f1-${(++answered).toString(36)}`
  c.set('answerHeaders', {
    'content-type': 'application/json',
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': exposed,
  })
  await next()
  const ms = (performance.now() - startedAt).toFixed(2)
  const { method, path } = c.req
  console.log(`${new Date().toISOString()} ${requestId} ${method} ${path} ${c.res.status} ${ms}ms`)
})

/** The object's answer to the request, with the headers the middleware gathered. */
async function throughTheObject(c) {
  const object = c.env.ITEMS.get(c.env.ITEMS.idFromName('movies'))
  const answer = await object.fetch(c.req.raw)
  const etag = answer.headers.get('etag')
  const headers = { ...c.get('answerHeaders'), ...(etag !== null && { etag }) }
  return new Response(answer.body, { status: answer.status, headers })
}

app.get('/items', throughTheObject)
app.get('/items/:id', throughTheObject)
app.post('/items', throughTheObject)

export default app
