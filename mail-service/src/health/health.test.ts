import { describe, expect, it } from 'vitest'
import { testApp } from '../../test/support/test-app.js'

describe('GET /healthz', () => {
  it('answers 200 while the stores answer', async () => {
    const t = await testApp()
    const response = await t.app.request('/healthz')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
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
