import { DetaBaseStandIn } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { describeSendCounterContract } from '../../../test/contracts/send-counter.contract.js'
import { DetaSendCounter } from './deta-send-counter.js'

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

  it('stores one item per bucket, its TAT, expiring when the bucket is empty again', async () => {
    const bucket = { key: 'key:abc', limit: { count: 5, windowMs: 90_000 } }
    const counter = open('sends-shape')
    for (const at of [1_700_000_000_000, 1_700_000_000_500]) await counter.take([bucket], at)
    const puts = deta.requests.filter(
      (request) => request.method === 'PUT' && request.path.endsWith('/items'),
    )
    // Each send rewrites the one item: 18 s of the window a send, from the later of now and TAT.
    expect(puts.map((request) => request.body)).toEqual([
      { items: [{ key: 'key:abc', tat: 1_700_000_018_000, __expires: expect.any(Number) }] },
      { items: [{ key: 'key:abc', tat: 1_700_000_036_000, __expires: expect.any(Number) }] },
    ])
    const [first] = deta.items('sends-shape')
    const expiresIn = Number(first?.__expires) - Date.now() / 1000
    expect(expiresIn).toBeGreaterThan(34)
    expect(expiresIn).toBeLessThan(39)
  })
})
