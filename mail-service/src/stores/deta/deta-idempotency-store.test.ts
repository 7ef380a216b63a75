import { DetaBaseStandIn } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { describeIdempotencyStoreContract } from '../../../test/contracts/idempotency-store.contract.js'
import { DetaIdempotencyStore } from './deta-idempotency-store.js'

const projectKey = 'a0abc123_secretPart'
const deta = DetaBaseStandIn.forEachTest()

let bases = 0
const open = (baseName = `idempotency${++bases}`) =>
  new DetaIdempotencyStore({ projectKey, host: deta.host, baseName })

describeIdempotencyStoreContract('Deta Base (deta SDK over https)', async () => {
  const baseName = `idempotency${++bases}`
  return {
    store: open(baseName),
    reopen: async () => open(baseName),
    expiresItself: 'every record carries the Base expiry (__expires) of its key',
    cleanup: async () => {},
  }
})

describe('DetaIdempotencyStore', () => {
  it('takes a key with the Base insert, and the record carries its expiry', async () => {
    const store = open('idempotency-shape')
    const takenAt = Date.parse('2026-11-23T12:00:00Z')
    const expiresAt = takenAt + 86_400_000
    await store.take('f'.repeat(64), { fingerprint: 'fp', takenAt, expiresAt })
    expect(deta.requests).toEqual([
      {
        method: 'POST',
        host: deta.host,
        path: '/v1/a0abc123/idempotency-shape/items',
        apiKey: projectKey,
        body: {
          item: {
            key: 'f'.repeat(64),
            fingerprint: 'fp',
            takenAt,
            expiresAt,
            __expires: expiresAt / 1000,
          },
        },
      },
    ])
  })

  it('lets only one of two instances take a key', async () => {
    const [first, second] = [open('idempotency-two'), open('idempotency-two')]
    const now = Date.now()
    const record = { fingerprint: 'fp', takenAt: now, expiresAt: now + 60_000 }
    expect(await first.take('k', record)).toBeNull()
    expect(await second.take('k', record)).toEqual(record)
  })
})
