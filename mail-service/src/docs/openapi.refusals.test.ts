import { OpenApiContract } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refusedMailBodies } from '../../test/support/refused-mail-bodies.js'
import { apiKey, type TestApp, testApp } from '../../test/support/test-app.js'

let t: TestApp
let contract: OpenApiContract
beforeAll(async () => {
  t = await testApp()
  contract = await OpenApiContract.of(t.app)
})
afterAll(() => t.cleanup())

// The route tests refuse these bodies with 400 (`sendmail-rejects.test.ts`): a client or a
// validator that knows only the published document must be able to refuse them as well.
describe('the document of POST /sendmail', () => {
  const checked = refusedMailBodies.filter((entry) => entry.notInDocument === undefined)

  it.each(checked)('refuses $what, as the service does', ({ body }) => {
    expect(contract.requestBodyProblems('post', '/sendmail', JSON.parse(String(body)))).not.toEqual(
      [],
    )
  })

  it('leaves out only bodies it cannot see, saying why', () => {
    const left = refusedMailBodies.filter((entry) => entry.notInDocument !== undefined)
    expect(left.map(({ what }) => what)).toEqual([
      'an email whose domain IDNA refuses',
      'a lone surrogate in another field',
      'bytes that are not UTF-8 in the name',
      'an email given twice',
      'a number beyond the range of a double in another field',
      ...[
        '9007199254740993',
        '9007199254740993.0',
        '9.007199254740993e15',
        '90071992547409930e-1',
      ].map((number) => `an integer beyond 2^53 that would be rounded, as ${number}`),
      'invalid JSON',
      'an empty body',
    ])
  })

  it.each([
    ['a plain address', { email: 'ada@example.com', name: 'Ada Lovelace' }],
    ['letters beyond ASCII', { email: 'zoë@exämple.de', name: 'Zoë 🎬' }],
    ['other fields, ignored', { email: 'ada@example.com', name: 'Ada', note: 1 }],
  ])('admits %s, as the service does', (_, body) => {
    expect(contract.requestBodyProblems('post', '/sendmail', body)).toEqual([])
  })
})

describe('the document of POST /sendmail, for a body that does not arrive', () => {
  it('lists the 408 the service answers, with its error', async () => {
    const late = await testApp({ bodyTimeoutMs: 50 })
    try {
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode('{"email":')),
      })
      // testApp checks every response against the app's own document.
      const response = await late.app.request('/sendmail', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-apikey': apiKey },
        body,
        duplex: 'half',
      } as RequestInit)
      expect(response.status).toBe(408)
      expect(await response.json()).toEqual({
        error: 'the request body did not arrive within 0.05 s',
      })
    } finally {
      await late.cleanup()
    }
  })
})
