import { rawRequest, type WireCase, wranglerExitsOnCutBodies } from '@movies-and-mail/test-kit'
import { refusedMailBodies } from './refused-mail-bodies.js'

/** The key the service under test accepts (API_KEYS). */
export const apiKey = 'differential-key'

const json = { 'content-type': 'application/json' }
const keyed = { 'x-apikey': apiKey }
const ada = JSON.stringify({ email: 'ada@example.com', name: 'Ada' })
const over = (bytes: number) => `{"pad":"${'x'.repeat(bytes)}"}`

/** A request with `Host` and, for a body, its `Content-Length` (unless given). */
function ask(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Uint8Array,
): Buffer {
  const length: Record<string, string> =
    body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }
  return rawRequest(method, path, { host: 'mail.test', ...length, ...headers }, body)
}

/** `body` sent in chunks: one chunk and the end. */
function chunked(method: string, path: string, headers: Record<string, string>, body: string) {
  const head = rawRequest(method, path, {
    host: 'mail.test',
    'transfer-encoding': 'chunked',
    ...headers,
  })
  const chunk = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`
  return Buffer.concat([head, Buffer.from(chunk)])
}

/** A send with `Idempotency-Key: key` and `body`. */
const sendOnce = (key: string, body: string) =>
  ask('POST', '/sendmail', { ...json, ...keyed, 'idempotency-key': key }, body)

/**
 * Every refusal the route tests make, and the requests around them a client may send: each is
 * sent to Node and to the Worker, their responses compared, and a valid send follows each.
 */
export const differentialCorpus: WireCase[] = [
  ...refusedMailBodies.map(({ what, body }) => ({
    what: `a send with ${what}`,
    request: ask('POST', '/sendmail', { ...json, ...keyed }, body),
  })),
  { what: 'a send without a key', request: ask('POST', '/sendmail', json, ada) },
  {
    what: 'a send with a wrong key',
    request: ask('POST', '/sendmail', { ...json, 'x-apikey': 'guess' }, ada),
  },
  {
    what: 'a text/plain send with a wrong key',
    request: ask('POST', '/sendmail', { 'content-type': 'text/plain', 'x-apikey': 'guess' }, 'x'),
  },
  { what: 'a send with no content type', request: ask('POST', '/sendmail', keyed, ada) },
  {
    what: 'a text/plain send',
    request: ask('POST', '/sendmail', { 'content-type': 'text/plain', ...keyed }, ada),
  },
  {
    what: 'a merge patch',
    request: ask(
      'POST',
      '/sendmail',
      { 'content-type': 'application/merge-patch+json', ...keyed },
      ada,
    ),
  },
  {
    what: 'a send with a BOM before the JSON',
    request: ask(
      'POST',
      '/sendmail',
      { ...json, ...keyed },
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ada)]),
    ),
  },
  { what: 'a send with an Idempotency-Key', request: sendOnce('once-1', ada) },
  { what: 'the same key and body again', request: sendOnce('once-1', ada) },
  {
    what: 'the same key with another body',
    request: sendOnce('once-1', JSON.stringify({ email: 'eve@example.com', name: 'Eve' })),
  },
  { what: 'an Idempotency-Key with a control character', request: sendOnce('a\tb', ada) },
  { what: 'an Idempotency-Key of 256 characters', request: sendOnce('k'.repeat(256), ada) },
  { what: 'the mail log without a key', request: ask('GET', '/maillog') },
  { what: 'the mail log with a wrong key', request: ask('GET', '/maillog', { 'x-apikey': 'no' }) },
  ...['limit=0', 'limit=abc', 'limit=1001', 'cursor=nonsense'].map((search) => ({
    what: `GET /maillog?${search}`,
    request: ask('GET', `/maillog?${search}`, keyed),
  })),
  { what: 'GET /outbox?limit=0', request: ask('GET', '/outbox?limit=0', keyed) },
  ...['GET /sendmail', 'PUT /sendmail', 'DELETE /maillog', 'POST /healthz', 'PATCH /outbox'].map(
    (line) => {
      const [method = '', path = ''] = line.split(' ')
      return {
        what: `${line} (no such method)`,
        request: ask(method, path, { ...json, ...keyed }, ada),
      }
    },
  ),
  { what: 'an unknown path', request: ask('GET', '/nope') },
  { what: 'OPTIONS /sendmail', request: ask('OPTIONS', '/sendmail') },
  {
    what: 'a CORS preflight for a send',
    request: ask('OPTIONS', '/sendmail', {
      origin: 'https://app.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, x-apikey',
    }),
  },
  { what: 'HEAD /healthz', request: ask('HEAD', '/healthz'), head: true },
  {
    what: 'a body over the limit, its length declared',
    request: ask('POST', '/sendmail', { ...json, ...keyed }, over(20_000)),
  },
  {
    what: 'a body over the limit in chunks',
    request: chunked('POST', '/sendmail', { ...json, ...keyed }, over(20_000)),
  },
  {
    what: 'a body of 1 MB without a key',
    request: ask('POST', '/sendmail', json, over(1_000_000)),
  },
  {
    what: 'a send cut off mid-body, the client gone',
    request: ask('POST', '/sendmail', { ...json, ...keyed, 'content-length': '200' }, '{"em'),
    partial: true,
    goAwayAfterMs: 50,
    notUnderWranglerDev: wranglerExitsOnCutBodies,
  },
  {
    what: 'a send whose client goes away before the body',
    request: ask('POST', '/sendmail', { ...json, ...keyed, 'content-length': '60' }, ''),
    partial: true,
    goAwayAfterMs: 0,
    notUnderWranglerDev: wranglerExitsOnCutBodies,
  },
]
