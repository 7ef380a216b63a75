import { closedPortUrl, implicitMethodProblems, MailgunStandIn } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKey, sendMail, type TestApp, testApp } from '../../test/support/test-app.js'

type Operation = {
  responses: Record<string, unknown>
  operationId?: string
  tags?: string[]
  security?: Record<string, string[]>[]
}
type Document = {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> }
  servers?: { url: string }[]
  tags?: { name: string }[]
}
type EmailSchema = { allOf: { pattern: string }[]; format?: string }

let outboxApp: TestApp
let mailgunApp: TestApp
let mailgun: MailgunStandIn
let document: Document

beforeAll(async () => {
  mailgun = await MailgunStandIn.start()
  outboxApp = await testApp()
  mailgunApp = await testApp({ mailgunUrl: mailgun.baseUrl, timeoutMs: 300 })
  document = (await (await outboxApp.app.request('/openapi.json')).json()) as Document
})
afterAll(async () => {
  await Promise.all([outboxApp.cleanup(), mailgunApp.cleanup(), mailgun.stop()])
})

const ada = { email: 'ada@example.com', name: 'Ada' }
const withKey = { headers: { 'x-apikey': apiKey } }

type Answer = [label: string, route: string, ask: () => Response | Promise<Response>]

/** One request for every response the app gives, with the documented operation it comes from. */
const answers: Answer[] = [
  ['201 from the outbox', 'post /sendmail', () => sendMail(outboxApp.app, ada)],
  ['201 from Mailgun', 'post /sendmail', () => sendMail(mailgunApp.app, ada)],
  ['400', 'post /sendmail', () => sendMail(outboxApp.app, { email: 'a@b.c, d@e.f', name: 'x' })],
  ['401', 'post /sendmail', () => sendMail(outboxApp.app, ada, { 'x-apikey': 'wrong' })],
  [
    '413',
    'post /sendmail',
    () => sendMail(outboxApp.app, JSON.stringify({ pad: 'x'.repeat(17_000) })),
  ],
  ['415', 'post /sendmail', () => sendMail(outboxApp.app, ada, { 'content-type': 'text/plain' })],
  [
    '504',
    'post /sendmail',
    () => {
      mailgun.reply = 'hang'
      return sendMail(mailgunApp.app, ada)
    },
  ],
  [
    '502',
    'post /sendmail',
    async () => {
      const closed = await testApp({ mailgunUrl: await closedPortUrl() })
      return sendMail(closed.app, ada).finally(closed.cleanup)
    },
  ],
  [
    "the provider's 429",
    'post /sendmail',
    () => {
      mailgun.reply = { status: 429, body: '' }
      return sendMail(mailgunApp.app, ada)
    },
  ],
  ['200', 'get /maillog', () => outboxApp.app.request('/maillog', withKey)],
  ['400', 'get /maillog', () => outboxApp.app.request('/maillog?limit=x', withKey)],
  ['401', 'get /maillog', () => outboxApp.app.request('/maillog')],
  [
    '503',
    'get /maillog',
    async () => {
      const closed = await testApp()
      await closed.mailLog.close()
      return Promise.resolve(closed.app.request('/maillog', withKey)).finally(closed.cleanup)
    },
  ],
  ['200', 'get /outbox', () => outboxApp.app.request('/outbox', withKey)],
  ['400', 'get /outbox', () => outboxApp.app.request('/outbox?limit=5000', withKey)],
  ['401', 'get /outbox', () => outboxApp.app.request('/outbox')],
  ['404', 'get /outbox', () => mailgunApp.app.request('/outbox', withKey)],
  ['200', 'get /healthz', () => outboxApp.app.request('/healthz')],
  [
    '503',
    'get /healthz',
    async () => {
      const closed = await testApp()
      await closed.mailLog.close()
      return Promise.resolve(closed.app.request('/healthz')).finally(closed.cleanup)
    },
  ],
  ['200', 'get /openapi.json', () => outboxApp.app.request('/openapi.json')],
  ['200', 'get /docs', () => outboxApp.app.request('/docs')],
  ['200', 'get /docs/{file}', () => outboxApp.app.request('/docs/swagger-ui.css')],
  [
    '304',
    'get /docs/{file}',
    async () => {
      const etag = (await outboxApp.app.request('/docs/init.js')).headers.get('etag') ?? ''
      return outboxApp.app.request('/docs/init.js', { headers: { 'if-none-match': etag } })
    },
  ],
  ['404', 'get /docs/{file}', () => outboxApp.app.request('/docs/index.html')],
]

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document with the x-apikey scheme', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(document.components.securitySchemes.ApiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'x-apikey',
    })
  })

  it('lists every route the app serves', () => {
    const served = outboxApp.app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    )
    const implicit = [
      ...served.filter((name) => name.startsWith('get ')).map((name) => `head${name.slice(3)}`),
      ...Object.keys(document.paths).map((path) => `options ${path}`),
    ]
    expect(new Set([...served, ...implicit])).toEqual(new Set(documented))
    expect(served).toContain('post /sendmail')
  })

  it('lists the methods of each path as OPTIONS and a 405 answer them', async () => {
    const request = (path: string, init: RequestInit) => outboxApp.app.request(path, init)
    expect(await implicitMethodProblems(document.paths, request)).toEqual([])
  })

  it.each(answers)('documents %s of %s', async (label, route, ask) => {
    const response = await ask()
    const [method = '', path = ''] = route.split(' ')
    const documented = Object.keys(document.paths[path]?.[method]?.responses ?? {})
    // A status the provider chose is passed on as it is: the document lists it under `default`.
    const key = label.startsWith("the provider's") ? 'default' : String(response.status)
    expect(label.startsWith(String(response.status)) || key === 'default').toBe(true)
    expect(documented).toContain(key)
  })

  it('takes its request schema from the validator: the limits of email and name', () => {
    const body = JSON.stringify(document.components.schemas.SendMailRequest)
    expect(body).toContain('"maxLength":254')
    expect(body).toContain('"maxLength":100')
  })

  it('publishes the address pattern the service checks, the same with and without `u`', () => {
    const request = document.components.schemas.SendMailRequest as {
      properties: { email: EmailSchema }
    }
    const { allOf, format } = request.properties.email
    expect(format).toBeUndefined()
    for (const flags of ['', 'u']) {
      const patterns = allOf.map(({ pattern }) => new RegExp(pattern, flags))
      const admits = (address: string) => patterns.every((pattern) => pattern.test(address))
      for (const accepted of ['ada@example.com', 'δοκιμή@παράδειγμα.δοκιμή', '用户@例子.广告']) {
        expect(admits(accepted), accepted).toBe(true)
      }
      const longLocal = `${'a'.repeat(65)}@example.com`
      const longLabel = `ada@${'b'.repeat(64)}.com`
      for (const refused of [
        'a@b.c, d@e.f',
        'Ada <ada@example.com>',
        'ada@example',
        'a b@c.d',
        longLocal,
        longLabel,
      ]) {
        expect(admits(refused), refused).toBe(false)
      }
    }
  })

  const operations = () => Object.values(document.paths).flatMap((item) => Object.values(item))

  it('names and tags every operation, and serves them from wherever the document is', () => {
    const ids = operations().map((operation) => operation.operationId)
    expect(ids).toEqual(expect.arrayContaining(['sendMail', 'listMailLog', 'listOutbox']))
    expect(ids.every((id) => typeof id === 'string')).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    expect(operations().every((operation) => operation.tags?.length)).toBe(true)
    const tags = new Set(operations().flatMap((operation) => operation.tags ?? []))
    expect(document.tags?.map((tag) => tag.name).sort()).toEqual([...tags].sort())
    expect(document.servers).toEqual([expect.objectContaining({ url: '.' })])
  })

  it('states the security of every operation: the key for mail and records, none for the rest', () => {
    const guarded = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.security?.length)
        .map(([method]) => `${method} ${path}`),
    )
    expect(guarded.sort()).toEqual([
      'get /maillog',
      'get /maillog/{id}',
      'get /outbox',
      'head /maillog',
      'head /maillog/{id}',
      'head /outbox',
      'post /sendmail',
    ])
    expect(operations().filter((operation) => !operation.security)).toEqual([])
  })
})

describe('GET /docs', () => {
  it('is Swagger UI for the relative openapi.json, with nothing loaded from elsewhere', async () => {
    const response = await outboxApp.app.request('/docs')
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    const page = await response.text()
    for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js']) {
      expect(page).toContain(`="docs/${file}?v=`)
    }
    expect(page).not.toMatch(/src=["']?(https?:|\/\/)|href=["']?(https?:|\/\/)/)
    const init = await (await outboxApp.app.request('/docs/init.js')).text()
    expect(init).toContain("new URL('openapi.json', pageFolder)")
  })
})
