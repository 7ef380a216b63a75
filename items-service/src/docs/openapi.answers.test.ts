import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import { OpenApiContract } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { apiKey, useDocumentedApp } from '../../test/support/documented-app.js'
import { failingStore } from '../../test/support/failing-store.js'
import { movies, TestApp } from '../../test/support/test-app.js'
import { TestIssuer, testAudience, testIssuer } from '../../test/support/test-issuer.js'
import { createApp } from '../app.js'
import { ChangeFeed } from '../store/change-feed.js'
import { issuerUsers } from '../users/issuer-users.js'

// Every status the document lists for an operation is one the app answers, and the other way round.

const json = { 'content-type': 'application/json' }
const key = { 'x-apikey': apiKey }
const shawshank = JSON.stringify(movies.shawshank)

/** A request that the app answers with one status, and the documented operation it belongs to. */
type Case = { operation: string; status: number; send: (app: TestApp) => Promise<Response> }

const post =
  (body: string, headers: Record<string, string> = { ...json, ...key }) =>
  (app: TestApp) =>
    app.request('/items', { method: 'POST', headers, body })
const put =
  (id: string, body: string, headers: Record<string, string> = { ...json, ...key }) =>
  (app: TestApp) =>
    app.request(`/items/${id}`, { method: 'PUT', headers, body })
const del =
  (id: string, headers: Record<string, string> = key) =>
  (app: TestApp) =>
    app.request(`/items/${id}`, { method: 'DELETE', headers })
const get = (path: string) => (app: TestApp) => app.request(path)
/** Reads `path`, then reads it again with its ETag in If-None-Match. */
const getAgain = (path: string) => async (app: TestApp) => {
  const etag = (await app.request(path)).headers.get('etag') ?? ''
  return app.request(path, { headers: { 'if-none-match': etag } })
}
const stale = { ...json, ...key, 'if-match': '"stale"' }
/** An app over a store that cannot follow its changes. */
const withoutFeed = () => async () =>
  createApp({ store: failingStore(() => new Error('unused')), log: () => {} }).request(
    '/items/events',
  )
/** The change feed of an app whose feed has these limits (0: no room for a stream). */
const feedWithin = (events: { maxStreams?: number; maxStreamsPerClient?: number }) => async () =>
  createApp({
    store: { ...failingStore(() => new Error('unused')), changes: new ChangeFeed() },
    log: () => {},
    events,
  }).request('/items/events')
/** A write whose body starts and never ends, to an app that waits 50 ms for it. */
const lateBody = (method: 'POST' | 'PUT', path: string) => async () => {
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(new TextEncoder().encode('{"id":')),
  })
  const app = createApp({
    store: failingStore(() => new Error('unused')),
    log: () => {},
    bodyTimeoutMs: 50,
  })
  return app.request(path, { method, headers: json, body, duplex: 'half' } as RequestInit)
}
const tooBig = JSON.stringify({ ...movies.shawshank, notes: 'x'.repeat(70_000) })
const cases: Case[] = [
  { operation: 'get /healthz', status: 200, send: get('/healthz') },
  { operation: 'get /items', status: 200, send: get('/items') },
  { operation: 'get /items', status: 304, send: getAgain('/items') },
  { operation: 'get /items', status: 400, send: get('/items?sort=year') },
  { operation: 'get /items/{id}', status: 200, send: get('/items/tt0068646') },
  { operation: 'get /items/{id}', status: 304, send: getAgain('/items/tt0068646') },
  { operation: 'get /items/{id}', status: 400, send: get(`/items/${'x'.repeat(201)}`) },
  { operation: 'get /items/{id}', status: 404, send: get('/items/missing') },
  { operation: 'post /items', status: 201, send: post(shawshank) },
  { operation: 'post /items', status: 400, send: post('{"id":"a"}') },
  { operation: 'post /items', status: 401, send: post(shawshank, json) },
  { operation: 'post /items', status: 409, send: post(JSON.stringify(movies.godfather)) },
  { operation: 'post /items', status: 413, send: post(tooBig) },
  {
    operation: 'post /items',
    status: 415,
    send: post(shawshank, { 'content-type': 'text/plain', ...key }),
  },
  { operation: 'post /items', status: 408, send: lateBody('POST', '/items') },
  { operation: 'put /items/{id}', status: 408, send: lateBody('PUT', '/items/tt0068646') },
  { operation: 'put /items/{id}', status: 200, send: put('tt0068646', '{"genre":"Drama"}') },
  { operation: 'put /items/{id}', status: 400, send: put('tt0068646', '{}') },
  { operation: 'put /items/{id}', status: 401, send: put('tt0068646', '{"genre":"Drama"}', json) },
  { operation: 'put /items/{id}', status: 404, send: put('missing', '{"genre":"Drama"}') },
  {
    operation: 'put /items/{id}',
    status: 409,
    send: put('tt0068646', JSON.stringify({ id: 'tt0468569' })),
  },
  { operation: 'put /items/{id}', status: 412, send: put('tt0068646', '{"a":1}', stale) },
  { operation: 'put /items/{id}', status: 413, send: put('tt0068646', tooBig) },
  {
    operation: 'put /items/{id}',
    status: 415,
    send: put('tt0068646', '{}', { 'content-type': 'text/plain', ...key }),
  },
  { operation: 'delete /items/{id}', status: 200, send: del('tt0468569') },
  { operation: 'delete /items/{id}', status: 400, send: del('x'.repeat(201)) },
  { operation: 'delete /items/{id}', status: 401, send: del('tt0468569', {}) },
  { operation: 'delete /items/{id}', status: 404, send: del('missing') },
  { operation: 'delete /items/{id}', status: 412, send: del('tt0068646', stale) },
  {
    operation: 'get /items/events',
    status: 200,
    send: async (app) => {
      const response = await app.request('/items/events')
      await response.body?.cancel()
      return response
    },
  },
  { operation: 'get /items/events', status: 501, send: withoutFeed() },
  { operation: 'get /items/events', status: 429, send: feedWithin({ maxStreamsPerClient: 0 }) },
  { operation: 'get /items/events', status: 503, send: feedWithin({ maxStreams: 0 }) },
  { operation: 'get /openapi.json', status: 200, send: get('/openapi.json') },
  { operation: 'get /', status: 200, send: get('/') },
  { operation: 'get /assets/{file}', status: 200, send: get('/assets/app.js') },
  { operation: 'get /assets/{file}', status: 404, send: get('/assets/missing.js') },
  { operation: 'get /docs', status: 200, send: get('/docs') },
  { operation: 'get /docs/{file}', status: 200, send: get('/docs/init.js') },
  {
    operation: 'get /docs/{file}',
    status: 304,
    send: async (app) => {
      const etag = (await app.request('/docs/init.js')).headers.get('etag') ?? ''
      return app.request('/docs/init.js', { headers: { 'if-none-match': etag } })
    },
  },
  { operation: 'get /docs/{file}', status: 404, send: get('/docs/index.html') },
]
const unavailable = [
  'get /healthz',
  'get /items',
  'get /items/{id}',
  'post /items',
  'put /items/{id}',
  'delete /items/{id}',
]

const writes = ['post /items', 'put /items/{id}', 'delete /items/{id}']

describe('GET /openapi.json', () => {
  const { app, document, documented } = useDocumentedApp()

  it.each(cases)(
    'documents $status for $operation, as the app answers it',
    async ({ operation, status, send }) => {
      expect((await send(app())).status).toBe(status)
      const entry = documented().find((candidate) => candidate.name === operation)
      expect(Object.keys(entry?.operation.responses ?? {})).toContain(String(status))
    },
  )

  it('documents 503 on every operation, as the app answers it when the database is down', async () => {
    const down = createApp({
      store: failingStore(() => new StoreUnavailableError('database unavailable')),
      log: () => {},
    })
    for (const operation of unavailable) {
      const [method = '', template = ''] = operation.split(' ')
      const path = template.replace('{id}', 'tt0068646')
      const response = await down.request(path, {
        method: method.toUpperCase(),
        headers: json,
        body: method === 'post' || method === 'put' ? shawshank : undefined,
      })
      expect(response.status, operation).toBe(503)
      await new OpenApiContract(document()).check({ method, url: path }, response)
      expect(
        documented().find((entry) => entry.name === operation)?.operation.responses,
      ).toHaveProperty('503')
    }
  })

  it('documents 403 on every write, as the app answers a page on another origin without a key', async () => {
    const open = await TestApp.open({})
    try {
      await post(JSON.stringify(movies.godfather))(open)
      for (const operation of writes) {
        const [method = '', template = ''] = operation.split(' ')
        const path = template.replace('{id}', 'tt0068646')
        const response = await open.request(path, {
          method: method.toUpperCase(),
          headers: { ...json, origin: 'https://other.example' },
          body: method === 'delete' ? undefined : shawshank,
        })
        expect(response.status, operation).toBe(403)
        const documentedWrite = documented().find((entry) => entry.name === operation)
        expect(documentedWrite?.operation.responses).toHaveProperty('403')
      }
    } finally {
      await open.close()
    }
  })

  it('documents 507 on every write, as the app answers it when the disk is full', async () => {
    const full = createApp({ store: failingStore(() => new StoreFullError()), log: () => {} })
    for (const operation of writes) {
      const [method = '', template = ''] = operation.split(' ')
      const path = template.replace('{id}', 'tt0068646')
      const response = await full.request(path, {
        method: method.toUpperCase(),
        headers: json,
        body: method === 'delete' ? undefined : shawshank,
      })
      expect(response.status, operation).toBe(507)
      await new OpenApiContract(document()).check({ method, url: path }, response)
      expect(await response.json()).toEqual({ error: 'no space left to store the write' })
      const documentedWrite = documented().find((entry) => entry.name === operation)
      expect(documentedWrite?.operation.responses).toHaveProperty('507')
    }
  })

  it('documents 431 on every write, as the app with an issuer answers an Authorization over 8 KiB', async () => {
    const issuer = await TestIssuer.start()
    const users = issuerUsers(
      { issuer: testIssuer, audience: testAudience, jwksUrl: undefined },
      { fetch: issuer.fetch },
    )
    const withUsers = await TestApp.open({ users })
    try {
      for (const operation of writes) {
        const [method = '', template = ''] = operation.split(' ')
        const response = await withUsers.request(template.replace('{id}', 'tt0068646'), {
          method: method.toUpperCase(),
          headers: { ...json, authorization: `Bearer ${'a'.repeat(9000)}` },
          body: method === 'delete' ? undefined : shawshank,
        })
        expect(response.status, operation).toBe(431)
        const documentedWrite = documented().find((entry) => entry.name === operation)
        expect(documentedWrite?.operation.responses).toHaveProperty('431')
      }
    } finally {
      await withUsers.close()
    }
  })

  it('documents no status the app never answers', () => {
    const answered = new Set([
      ...cases.map(({ operation, status }) => `${operation} ${status}`),
      ...unavailable.map((operation) => `${operation} 503`),
      ...writes.map((operation) => `${operation} 507`),
      ...writes.map((operation) => `${operation} 403`),
      ...writes.map((operation) => `${operation} 431`),
    ])
    // HEAD answers as GET does, without a body; OPTIONS is checked against the app above.
    const listed = documented()
      .filter(({ name }) => !name.startsWith('options '))
      .flatMap(({ name, operation }) =>
        Object.keys(operation.responses).map(
          (status) => `${name.replace(/^head /, 'get ')} ${status}`,
        ),
      )
    expect(listed.filter((entry) => !answered.has(entry))).toEqual([])
  })
})
