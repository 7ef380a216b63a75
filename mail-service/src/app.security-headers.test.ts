import { htmlHeaders } from '@movies-and-mail/http-kit/page'
import { describe, expect, it } from 'vitest'
import { MemoryIdempotencyStore } from '../test/support/memory-stores/memory-idempotency-store.js'
import { MemoryMailLog } from '../test/support/memory-stores/memory-mail-log.js'
import { MemorySendCounter } from '../test/support/memory-stores/memory-send-counter.js'
import { createApp } from './app.js'
import { OutboxMailer } from './mailer/outbox-mailer.js'

const apiKey = 'headers-test-key'
const outbox = new OutboxMailer(new MemoryMailLog())
const app = createApp({
  mailer: outbox,
  mailLog: new MemoryMailLog(),
  outbox,
  apiKeys: [apiKey],
  corsOrigins: ['*'],
  template: { from: 'a@example.com', subject: 'Hi', text: 'Hello {name}' },
  log: () => {},
  logError: () => {},
  idempotency: new MemoryIdempotencyStore(),
  counter: new MemorySendCounter(),
})
const request = (path: string, init?: RequestInit) => Promise.resolve(app.request(path, init))
// With its length declared, as every HTTP client sends it.
const sendMail = (body: string, headers: Record<string, string> = {}) =>
  request('/sendmail', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-apikey': apiKey,
      ...headers,
    },
    body,
  })

describe('GET /docs', () => {
  it('allows only its own origin, and no inline script or style', async () => {
    const response = await request('/docs')
    const page = await response.text()
    expect(
      Object.fromEntries(
        ['content-security-policy', 'referrer-policy'].map((name) => [
          name,
          response.headers.get(name),
        ]),
      ),
    ).toEqual({
      'content-security-policy': htmlHeaders()['content-security-policy'],
      'referrer-policy': 'no-referrer',
    })
    expect(/<script(?![^>]*\ssrc=)|<style|\sstyle=|\son\w+=/i.test(page)).toBe(false)
  })

  it('serves the files the page loads with their types and nosniff', async () => {
    for (const [file, type] of [
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['init.js', 'text/javascript; charset=utf-8'],
    ]) {
      const response = await request(`/docs/${file}`)
      expect(response.headers.get('content-type')).toBe(type)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})

describe('JSON answers', () => {
  it.each<[string, () => Promise<Response>]>([
    ['201 from /sendmail', () => sendMail('{"email":"ada@example.com","name":"Ada"}')],
    ['400 from /sendmail', () => sendMail('{"email":"not an address","name":"Ada"}')],
    ['401 from /sendmail', () => sendMail('{}', { 'x-apikey': 'wrong' })],
    ['413 from /sendmail', () => sendMail(JSON.stringify({ pad: 'x'.repeat(17_000) }))],
    ['GET /maillog', () => request('/maillog', { headers: { 'x-apikey': apiKey } })],
    ['GET /healthz', () => request('/healthz')],
    ['GET /openapi.json', () => request('/openapi.json')],
    ['an unknown route', () => request('/nowhere')],
  ])('%s carries X-Content-Type-Options: nosniff', async (_, send) => {
    const response = await send()
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('close the connection when they refuse a body before reading it', async () => {
    const tooLarge = await sendMail(JSON.stringify({ pad: 'x'.repeat(17_000) }))
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.headers.get('connection')).toBe('close')
    const unauthorized = await sendMail('{}', { 'x-apikey': 'wrong' })
    expect(unauthorized.headers.get('connection')).toBe('close')
    const listing = await request('/maillog')
    expect(listing.status).toBe(401)
    expect(listing.headers.get('connection')).toBeNull()
  })
})
