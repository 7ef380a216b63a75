import { DetaBaseStandIn } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { DetaSendCounter } from './deta-send-counter.js'
import { describeSendCounterContract } from './send-counter.contract.js'

const projectKey = 'a0abc123_secretPart'
const deta = DetaBaseStandIn.forEachTest()

let bases = 0
const open = (baseName: string) => new DetaSendCounter({ projectKey, host: deta.host, baseName })

describeSendCounterContract('Deta Base (deta SDK over https)', async () => {
  const baseName = `sends${++bases}`
  return { counter: open(baseName), reopen: async () => open(baseName), cleanup: async () => {} }
})

describe('DetaSendCounter', () => {
  it('counts across instances that share the Base', async () => {
    const bucket = { key: 'to:ada@example.com', limit: { count: 2, windowMs: 60_000 } }
    const now = Date.now()
    expect((await open('sends-shared').take([bucket], now)).admitted).toBe(true)
    expect((await open('sends-shared').take([bucket], now + 1)).admitted).toBe(true)
    expect((await open('sends-shared').take([bucket], now + 2)).admitted).toBe(false)
  })

  it('stores one send per bucket, expiring with its window', async () => {
    const bucket = { key: 'key:abc', limit: { count: 5, windowMs: 90_000 } }
    await open('sends-shape').take([bucket], 1_700_000_000_000)
    const inserts = deta.requests.filter(
      (request) => request.method === 'POST' && request.path.endsWith('/items'),
    )
    expect(inserts).toHaveLength(1)
    expect(inserts[0]?.body).toMatchObject({
      item: { bucket: 'key:abc', at: 1_700_000_000_000, __expires: expect.any(Number) },
    })
  })
})
