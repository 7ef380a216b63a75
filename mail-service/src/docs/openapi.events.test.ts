import {
  mailgunEvent,
  mailgunSigningKey,
  mailgunToken,
  signedMailgunEvent,
} from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryMailEvents } from '../../test/support/memory-stores/memory-mail-events.js'
import { apiKey, postEvent, sendMail, type TestApp, testApp } from '../../test/support/test-app.js'

type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }

let app: TestApp
let document: Document
beforeAll(async () => {
  app = await testApp()
  document = (await (await app.app.request('/openapi.json')).json()) as Document
})
afterAll(() => app.cleanup())

const withKey = { headers: { 'x-apikey': apiKey } }
const signed = (offsetMs = 0) =>
  signedMailgunEvent(mailgunSigningKey, mailgunEvent('delivered', '20260101.1@mg.example.com'), {
    timestamp: String(Math.floor((Date.now() + offsetMs) / 1000)),
  })

/** An app whose store of events fails every call. */
async function failingEventsApp() {
  const events = new MemoryMailEvents()
  events.takeToken = () => Promise.reject(new Error('connection reset'))
  return testApp({ events })
}

/** What `route` answers with, by status, one request each. */
const answers: Record<string, Record<string, () => Promise<Response>>> = {
  'post /webhooks/mailgun': {
    200: () => postEvent(app.app, signed()),
    400: () => postEvent(app.app, { signature: {} }),
    401: () => postEvent(app.app, signedMailgunEvent('key-other', signed()['event-data'])),
    404: async () => {
      const off = await testApp({ webhookSigningKey: undefined })
      return postEvent(off.app, signed()).finally(off.cleanup)
    },
    406: () => postEvent(app.app, signed(-3_600_000)),
    409: async () => {
      const first = signed()
      await postEvent(app.app, first)
      const other = mailgunEvent('complained', '20260101.1@mg.example.com')
      return postEvent(app.app, { ...first, 'event-data': other })
    },
    413: () => postEvent(app.app, { ...signed(), pad: 'x'.repeat(70_000) }),
    415: async () =>
      app.app.request('/webhooks/mailgun', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: mailgunToken(),
      }),
    503: async () => {
      const failing = await failingEventsApp()
      return postEvent(failing.app, signed()).finally(failing.cleanup)
    },
  },
  'get /maillog/{id}': {
    200: async () => {
      const sent = await sendMail(app.app, { email: 'ada@example.com', name: 'Ada' })
      return app.app.request(sent.headers.get('location') ?? '', withKey)
    },
    400: async () => app.app.request('/maillog/not-an-id', withKey),
    401: async () => app.app.request('/maillog/6955b9004f1e2d3c4b000001'),
    404: async () => app.app.request('/maillog/6955b9004f1e2d3c4b000001', withKey),
    503: async () => {
      const closed = await testApp()
      await closed.mailLog.close()
      return Promise.resolve(
        closed.app.request('/maillog/6955b9004f1e2d3c4b000001', withKey),
      ).finally(closed.cleanup)
    },
  },
}

describe('the OpenAPI document of the mail events', () => {
  for (const [route, byStatus] of Object.entries(answers)) {
    const [method = '', path = ''] = route.split(' ')
    it(`documents every answer of ${route}, and ${route} gives each`, async () => {
      const documented = Object.keys(document.paths[path]?.[method]?.responses ?? {})
      expect(documented.sort()).toEqual(Object.keys(byStatus).sort())
      for (const [status, ask] of Object.entries(byStatus)) {
        expect((await ask()).status, `${route} ${status}`).toBe(Number(status))
      }
    })
  }
})
