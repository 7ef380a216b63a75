import { describe, expect, it } from 'vitest'
import { MemoryIdempotencyStore } from '../../test/support/memory-stores/memory-idempotency-store.js'
import { MemorySendCounter } from '../../test/support/memory-stores/memory-send-counter.js'
import { testApp } from '../../test/support/test-app.js'

describe('GET /healthz', () => {
  it('answers 200 while the stores answer', async () => {
    const t = await testApp()
    const response = await t.app.request('/healthz')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
    await t.cleanup()
  })

  it.each([
    ['the store of idempotency keys', 'idempotency'],
    ['the send counter', 'counter'],
  ] as const)('answers 503 when %s does not answer, wherever the log is', async (_, port) => {
    const failing = { ping: () => Promise.reject(new Error('no answer')) }
    const t = await testApp(
      port === 'idempotency'
        ? { idempotency: Object.assign(new MemoryIdempotencyStore(), failing) }
        : { counter: Object.assign(new MemorySendCounter(), failing) },
    )
    const response = await t.app.request('/healthz')
    expect([response.status, await response.json()]).toEqual([
      503,
      { error: 'a store does not answer' },
    ])
    await t.cleanup()
  })

  it('answers 503 once a store stops answering, and needs no key', async () => {
    const t = await testApp()
    await t.mailLog.close()
    const response = await t.app.request('/healthz')
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({ error: 'a store does not answer' })
    await t.cleanup()
  })
})
