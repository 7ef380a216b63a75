// The floor of what items-service's answers promise, on the Workers runtime: every request goes
// through a Hono app whose one middleware gives the answer the headers each of items-service's
// carries (a request id, nosniff, CORS), made with the answer in one record, and writes the
// request's log line, both with http-kit's own code (`requestIdFor`, `requestLine`); its routes
// hand the request to the bare Worker's object (bare-worker.mjs) and answer its bytes with those
// headers and the object's tag. No validation, no checks, no conditional GET: what is left
// between this and items-service is the service's own work, where what is between the bare
// Worker through an object and this is Hono, the headers and the line.

import { Hono } from 'hono'
import { requestIdFor, requestLine } from '../../packages/http-kit/src/request-log.ts'
import { serviceHeaders } from './bare-worker.mjs'

export { ItemsObject } from './bare-worker.mjs'

const app = new Hono()
app.use(async (c, next) => {
  const startedAt = performance.now()
  const requestId = requestIdFor(c.req.header('x-request-id'))
  c.set('answerHeaders', { ...serviceHeaders, 'x-request-id': requestId })
  await next()
  // As items-service's Worker writes it (worker-app.ts).
  console.log(requestLine(requestId, c.req.method, c.req.path, c.res.status, startedAt).trimEnd())
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
