// The bound with items-service's promises and nothing else: a bare node:http server handing out
// cached bytes (cached-items.mjs) with the headers each of items-service's answers carries (a
// request id, nosniff, CORS, the tag) and one log line per request, batched into one write per
// turn of the event loop; the id, the line and the batching are http-kit's own code. What lies
// between the bound and this is what the promises cost; between this and items-service, Hono
// and the service's own work. Bundled by the bench (small-reads.mjs) before it runs.
//
//   node promised-bound.js <documents.json>   (prints "listening on <port>")
import { createServer } from 'node:http'
import { batchedLines } from '../../packages/http-kit/src/node/batched-lines.ts'
import { requestIdFor, requestLine } from '../../packages/http-kit/src/request-log.ts'
import { announce, cachedItems, corsHeaders } from './cached-items.mjs'

const { items, list } = cachedItems(process.argv[2])
const lines = batchedLines((text) => process.stdout.write(text))
const notFound = Buffer.from('{"error":"not found"}')

const server = createServer((req, res) => {
  const startedAt = performance.now()
  const requestId = requestIdFor(req.headers['x-request-id'])
  const { url } = req
  const tagged = url === '/items' ? list : items.get(decodeURIComponent(url.slice(7)))
  const headers = {
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
    ...corsHeaders,
    'content-type': 'application/json',
  }
  let status = 404
  if (tagged === undefined || !url.startsWith('/items')) {
    headers['content-length'] = notFound.length
    res.writeHead(404, headers).end(notFound)
  } else {
    headers.etag = tagged.etag
    status = req.headers['if-none-match'] === tagged.etag ? 304 : 200
    if (status === 304) delete headers['content-type']
    else headers['content-length'] = tagged.bytes.length
    res.writeHead(status, headers).end(status === 304 ? undefined : tagged.bytes)
  }
  lines.write(requestLine(requestId, req.method, url, status, startedAt))
})
announce(server)
server.listen(0, '127.0.0.1')
