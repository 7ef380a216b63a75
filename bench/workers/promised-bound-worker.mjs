// The bare Worker through an object (bare-worker.mjs) with the promises of every
// answer of items-service's Worker and nothing else: the request id, nosniff and the CORS headers
// in one record with the answer's own, and one log object per request on the console; the id, the
// CORS headers and the log object are http-kit's own code. No Hono, no checks, no tag (the bound
// keeps none). What lies between the bound and this is what those promises cost on the Workers
// runtime; between this and items-service, Hono, the checks, the tag and the store's call.
// Bundled before a run (`worker-small-reads.mjs`), with the bound's `DOCUMENTS` and `ITEMS` bindings.
import { corsPolicy } from '../../packages/http-kit/src/cors.ts'
import { requestIdFor } from '../../packages/http-kit/src/request-log.ts'
import { workerRequestLog } from '../../packages/http-kit/src/worker-request-log.ts'
import bare, { ItemsObject } from './bare-worker.mjs'

export { ItemsObject }

// As items-service makes them with `CORS_ORIGINS=*` and no key.
const shared = {
  'x-content-type-options': 'nosniff',
  ...corsPolicy({ writeOrigins: ['*'], keyedWrites: false }).responseHeaders,
}

/** The path of an absolute URL, without a `URL` made for it. */
const pathOf = (url) => {
  const path = url.slice(url.indexOf('/', url.indexOf('//') + 2))
  const query = path.indexOf('?')
  return query === -1 ? path : path.slice(0, query)
}

export default {
  async fetch(request, env) {
    const startedAt = performance.now()
    const requestId = requestIdFor(request.headers.get('x-request-id') ?? undefined)
    const answer = await bare.fetch(request, env)
    const headers = {
      'x-request-id': requestId,
      ...shared,
      'content-type': answer.headers.get('content-type'),
    }
    const response = new Response(answer.body, { status: answer.status, headers })
    const path = pathOf(request.url)
    workerRequestLog({
      requestId,
      method: request.method,
      path,
      route: path === '/items' ? '/items' : '/items/:id',
      status: answer.status,
      durationMs: performance.now() - startedAt,
      user: undefined,
      keyDigest: undefined,
    })
    return response
  },
}
