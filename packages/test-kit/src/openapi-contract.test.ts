import { describe, expect, it } from 'vitest'
import { checkedAgainst, OpenApiContract } from './openapi-contract.js'

const error = { $ref: '#/components/schemas/Error' }
const json = (schema: object) => ({ content: { 'application/json': { schema } } })
const document = {
  openapi: '3.1.0',
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          200: {
            ...json({
              type: 'object',
              properties: { id: { type: 'string', pattern: '^[^\\u0000-\\u001f]*$' } },
              required: ['id'],
              example: { id: 'a' },
            }),
            headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
          },
          '4XX': json(error),
        },
      },
      delete: {
        responses: {
          202: { description: 'Going' },
          204: { description: 'Gone' },
          default: json(error),
        },
      },
    },
    '/things/new': { get: { responses: { 200: json({ const: 'new' }) } } },
    '/page': { get: { responses: { 200: { content: { 'text/html': { schema: {} } } } } } },
  },
  components: {
    schemas: {
      Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
    },
  },
}

const contract = new OpenApiContract(document)
const answer = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
const problems = (method: string, url: string, response: Response, headers?: HeadersInit) =>
  contract.problemsOf({ method, url, headers: new Headers(headers) }, response)

describe('OpenApiContract', () => {
  it('accepts an answer as documented for its path template, status and media type', async () => {
    expect(await problems('GET', '/things/a%20b?x=1', answer({ id: 'a b' }))).toEqual([])
    expect(await problems('GET', 'http://host/things/a', answer({ error: 'no' }, 404))).toEqual([])
    expect(await problems('DELETE', '/things/a', new Response(null, { status: 204 }))).toEqual([])
    const page = new Response('<p>hi</p>', {
      headers: { 'content-type': 'text/html; charset=UTF-8' },
    })
    expect(await problems('GET', '/page', page)).toEqual([])
  })

  it('refuses a body its schema refuses, with components resolved', async () => {
    expect(await problems('GET', '/things/a', answer({ name: 'a' }))).toEqual([
      expect.stringContaining("must have required property 'id'"),
    ])
    expect(await problems('GET', '/things/a', answer({ id: 'a\nb' }))).toEqual([
      expect.stringContaining('must match pattern'),
    ])
    expect(await problems('GET', '/things/a', answer({ message: 'x' }, 400))).toHaveLength(1)
    expect(await problems('GET', '/things/a', answer('{"id":', 200))).toEqual([
      expect.stringContaining('not JSON'),
    ])
  })

  it('matches a concrete path before a template', async () => {
    expect(await problems('GET', '/things/new', answer('"new"'))).toEqual([])
    expect(await problems('GET', '/things/new', answer({ id: 'new' }))).toHaveLength(1)
  })

  it('refuses a status that is not documented, unless a range or default covers it', async () => {
    expect(await problems('GET', '/things/a', answer({ error: 'x' }, 503))).toEqual([
      'status 503 is not documented for get /things/{id}',
    ])
    expect(await problems('DELETE', '/things/a', answer({ error: 'x' }, 503))).toEqual([])
  })

  it('refuses an undocumented media type, and a body where none is documented', async () => {
    const text = new Response('{"id":"a"}', { headers: { 'content-type': 'text/plain' } })
    expect(await problems('GET', '/things/a', text)).toEqual([
      'Content-Type text/plain is not one of application/json',
    ])
    expect(await problems('DELETE', '/things/a', answer({}, 202))).toEqual([
      'a body (application/json) where the document has none',
    ])
  })

  it('checks documented headers against their schemas', async () => {
    expect(
      await problems('GET', '/things/a', answer({ id: 'a' }, 200, { 'retry-after': '3' })),
    ).toEqual([])
    expect(
      await problems('GET', '/things/a', answer({ id: 'a' }, 200, { 'retry-after': '0' })),
    ).toEqual([expect.stringContaining('header Retry-After must be >= 1')])
  })

  it('lets the app refuse what the document lacks, but not serve it', async () => {
    expect(await problems('PATCH', '/things/a', answer({ error: 'no route' }, 404))).toEqual([])
    expect(await problems('GET', '/other', answer({}, 200))).toEqual([
      'no documented operation answers 200',
    ])
    const preflight = new Response(null, { status: 204 })
    const asking = { 'access-control-request-method': 'PUT' }
    expect(await problems('OPTIONS', '/other', preflight, asking)).toEqual([])
  })
})

describe('checkedAgainst', () => {
  const app = {
    answers: [] as Response[],
    request(_input: string | URL | Request, _init?: RequestInit) {
      return this.answers.shift() as Response
    },
  }
  const checked = checkedAgainst(async () => contract, app)

  it('passes a documented answer on unread', async () => {
    app.answers.push(answer({ id: 'a' }))
    const response = await checked.request('/things/a')
    expect(await response.json()).toEqual({ id: 'a' })
  })

  it('rejects an answer that is not, naming the request and what differs', async () => {
    app.answers.push(answer({ id: 7 }))
    await expect(
      checked.request(new Request('http://localhost/things/a', { method: 'GET' })),
    ).rejects.toThrow(/GET http:\/\/localhost\/things\/a -> 200\n {2}body\/id must be string/)
  })

  it('reads the contract from what an app serves', async () => {
    const served = { request: () => answer(document) }
    const fromApp = await OpenApiContract.of(served)
    expect(
      await fromApp.problemsOf({ method: 'GET', url: '/things/new' }, answer('"new"')),
    ).toEqual([])
  })
})
