import { rawRequest, type WireCase, wranglerExitsOnCutBodies } from '@movies-and-mail/test-kit'
import { refusedOnCreate, refusedOnUpdate } from './refused-item-bodies.js'

/** The key the service under test is given (ITEMS_APIKEY). */
export const apiKey = 'right-items-api-key'
/** The items there before the corpus: the writes' target, and an id to collide with. */
export const seeds = [
  { id: 'tt-seed', name: 'Seed', genre: 'Drama' },
  { id: 'tt-other', name: 'Other', genre: 'Crime' },
]

const json = { 'content-type': 'application/json' }
const keyed = { 'x-apikey': apiKey }
const item = JSON.stringify({ id: 'tt-new', name: 'New', genre: 'Drama' })

/** A request with `Host` and, for a body, its `Content-Length` (unless given). */
function ask(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Uint8Array,
): Buffer {
  const length: Record<string, string> =
    body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }
  return rawRequest(method, path, { host: 'items.test', ...length, ...headers }, body)
}

/** The head of a request whose body is sent in chunks, and `body` as one chunk, not ended. */
function chunked(method: string, path: string, headers: Record<string, string>, body: string) {
  const head = rawRequest(method, path, {
    host: 'items.test',
    'transfer-encoding': 'chunked',
    ...headers,
  })
  return Buffer.concat([
    head,
    Buffer.from(`${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n`),
  ])
}

const over = (bytes: number) => `{"pad":"${'x'.repeat(bytes)}"}`
const refusedBodies = [
  ...refusedOnCreate.map(({ what, body }) => ({
    what: `POST /items with ${what}`,
    request: ask('POST', '/items', { ...json, ...keyed }, body),
  })),
  ...refusedOnUpdate.map(({ what, body }) => ({
    what: `PUT /items/tt-seed with ${what}`,
    request: ask('PUT', '/items/tt-seed', { ...json, ...keyed }, body),
  })),
]

/**
 * Every refusal the route tests make, and the requests around them a client may send: each is
 * sent to Node and to the Worker, and their responses compared; a valid write follows each. Every
 * body is sent whole, but where a client goes away: on the Worker a write is answered once its
 * body has arrived (`withBodyReadFirst`), while Node answers a refusal at once.
 */
export const differentialCorpus: WireCase[] = [
  ...refusedBodies,
  { what: 'POST without a key', request: ask('POST', '/items', json, item) },
  {
    what: 'POST with a wrong key',
    request: ask('POST', '/items', { ...json, 'x-apikey': 'no' }, item),
  },
  {
    what: 'PUT with a wrong key',
    request: ask('PUT', '/items/tt-seed', { ...json, 'x-apikey': 'no' }, '{"genre":"x"}'),
  },
  { what: 'DELETE without a key', request: ask('DELETE', '/items/tt-seed') },
  {
    what: 'POST text/plain with a wrong key',
    request: ask('POST', '/items', { 'content-type': 'text/plain', 'x-apikey': 'no' }, 'x'),
  },
  { what: 'POST with no content type', request: ask('POST', '/items', keyed, item) },
  {
    what: 'POST text/plain',
    request: ask('POST', '/items', { 'content-type': 'text/plain', ...keyed }, item),
  },
  {
    what: 'POST a merge patch',
    request: ask(
      'POST',
      '/items',
      { 'content-type': 'application/merge-patch+json', ...keyed },
      item,
    ),
  },
  {
    what: 'PUT a form',
    request: ask(
      'PUT',
      '/items/tt-seed',
      { 'content-type': 'application/x-www-form-urlencoded', ...keyed },
      'genre=x',
    ),
  },
  {
    what: 'POST with a BOM before the JSON',
    request: ask(
      'POST',
      '/items',
      { ...json, ...keyed },
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(JSON.stringify({ id: 'tt-bom', name: 'B', genre: 'g' })),
      ]),
    ),
  },
  {
    what: 'POST from a page on another origin, with the key',
    request: ask(
      'POST',
      '/items',
      { ...json, ...keyed, origin: 'https://other.example' },
      JSON.stringify({ id: 'tt-origin', name: 'O', genre: 'g' }),
    ),
  },
  {
    what: 'DELETE from a page of its own origin, with the key',
    request: ask('DELETE', '/items/tt-origin', { ...keyed, origin: 'http://items.test' }),
  },
  {
    what: 'POST a duplicate id',
    request: ask('POST', '/items', { ...json, ...keyed }, JSON.stringify(seeds[0])),
  },
  {
    what: 'PUT a rename to an existing id',
    request: ask('PUT', '/items/tt-seed', { ...json, ...keyed }, '{"id":"tt-other"}'),
  },
  {
    what: 'PUT an unknown id',
    request: ask('PUT', '/items/nope', { ...json, ...keyed }, '{"genre":"x"}'),
  },
  { what: 'DELETE an unknown id', request: ask('DELETE', '/items/nope', keyed) },
  { what: 'GET an unknown id', request: ask('GET', '/items/nope') },
  { what: 'GET an unknown path', request: ask('GET', '/nope') },
  {
    what: 'PUT with a stale If-Match',
    request: ask(
      'PUT',
      '/items/tt-seed',
      { ...json, ...keyed, 'if-match': '"stale"' },
      '{"genre":"x"}',
    ),
  },
  {
    what: 'DELETE with a stale If-Match',
    request: ask('DELETE', '/items/tt-seed', { ...keyed, 'if-match': '"stale"' }),
  },
  {
    what: 'DELETE an unknown id with If-Match *',
    request: ask('DELETE', '/items/nope', { ...keyed, 'if-match': '*' }),
  },
  {
    what: 'PUT with an empty If-Match',
    request: ask(
      'PUT',
      '/items/tt-seed',
      { ...json, ...keyed, 'if-match': '' },
      '{"genre":"Empty"}',
    ),
  },
  {
    what: 'PUT with an If-Match of commas',
    request: ask(
      'PUT',
      '/items/tt-seed',
      { ...json, ...keyed, 'if-match': ', ,' },
      '{"genre":"Commas"}',
    ),
  },
  {
    what: 'GET the list with If-None-Match *',
    request: ask('GET', '/items', { 'if-none-match': '*' }),
  },
  {
    what: 'GET an item with If-None-Match *',
    request: ask('GET', '/items/tt-seed', { 'if-none-match': '*' }),
  },
  { what: 'HEAD the list', request: ask('HEAD', '/items'), head: true },
  { what: 'OPTIONS the list', request: ask('OPTIONS', '/items') },
  {
    what: 'a CORS preflight for a PUT',
    request: ask('OPTIONS', '/items/tt-seed', {
      origin: 'https://app.example',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type, x-apikey',
    }),
  },
  ...[
    'PATCH /items',
    'DELETE /items',
    'PUT /items',
    'POST /items/tt-seed',
    'PATCH /items/tt-seed',
    'POST /healthz',
    'DELETE /items/events',
  ].map((line) => {
    const [method = '', path = ''] = line.split(' ')
    return {
      what: `${line} (no such method)`,
      request: ask(method, path, { ...json, ...keyed }, '{"genre":"x"}'),
    }
  }),
  ...[
    'sort=year',
    'limit=0',
    'limit=abc',
    'genre=a&genre=b',
    '%24where=1',
    'crew.name=x',
    '__proto__=x',
    'cursor=nonsense',
  ].map((search) => ({
    what: `GET /items?${search}`,
    request: ask('GET', `/items?${search}`),
  })),
  { what: 'GET an id of a lone surrogate', request: ask('GET', '/items/lone%ED%A0%80') },
  {
    what: 'PUT an id that is no percent-encoding',
    request: ask('PUT', '/items/%E0%A4%A', { ...json, ...keyed }, '{"genre":"x"}'),
  },
  {
    what: 'POST a body over the limit, its length declared',
    request: ask('POST', '/items', { ...json, ...keyed }, over(70_000)),
  },
  {
    what: 'PUT a body over the limit, its length declared',
    request: ask('PUT', '/items/tt-seed', { ...json, ...keyed }, over(70_000)),
  },
  {
    what: 'POST a body over the limit in chunks',
    request: Buffer.concat([
      chunked('POST', '/items', { ...json, ...keyed }, over(70_000)),
      Buffer.from('0\r\n\r\n'),
    ]),
  },
  {
    what: 'POST of 1 MB, its length declared',
    request: ask('POST', '/items', { ...json, ...keyed }, over(1_000_000)),
  },
  {
    what: 'POST of 1 MB in chunks',
    request: Buffer.concat([
      chunked('POST', '/items', { ...json, ...keyed }, over(1_000_000)),
      Buffer.from('0\r\n\r\n'),
    ]),
  },
  {
    what: 'POST of 1 MB without a key',
    request: ask('POST', '/items', json, over(1_000_000)),
  },
  {
    what: 'POST cut off mid-body, the client gone',
    request: ask(
      'POST',
      '/items',
      { ...json, ...keyed, 'content-length': '200' },
      '{"id":"tt-cut","na',
    ),
    partial: true,
    goAwayAfterMs: 50,
    notUnderWranglerDev: wranglerExitsOnCutBodies,
  },
  {
    what: 'POST whose client goes away before the body',
    request: ask('POST', '/items', { ...json, ...keyed, 'content-length': '60' }, ''),
    partial: true,
    goAwayAfterMs: 0,
    notUnderWranglerDev: wranglerExitsOnCutBodies,
  },
  {
    what: 'the change feed, its client gone mid-stream',
    request: ask('GET', '/items/events'),
    partial: true,
    goAwayAfterMs: 200,
  },
]
