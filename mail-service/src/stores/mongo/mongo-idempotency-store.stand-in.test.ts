import { describe, expect, it } from 'vitest'
import { pick, useStandInState } from '../../../test/support/mongo-stand-in-state.js'

const { open, standIn } = useStandInState()
const key = 'f'.repeat(64)
const takenAt = Date.parse('2026-11-23T12:00:00Z')
const record = { fingerprint: 'fp', takenAt, expiresAt: takenAt + 86_400_000 }

describe('MongoIdempotencyStore, as the server sees it', () => {
  it('creates the TTL index on expiresAt when opened', async () => {
    await (await open()).idempotency()
    const [created] = standIn().received('createIndexes')
    expect(pick(created, 'createIndexes', 'indexes')).toEqual({
      createIndexes: 'idempotency_keys',
      indexes: [{ key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 }],
    })
  })

  it('takes a key with one insert whose _id is the key, the expiry a date', async () => {
    const store = await (await open()).idempotency()
    const before = standIn().commandNames().length
    expect(await store.take(key, record)).toBeNull()
    const [insert] = standIn().received('insert')
    expect(pick(insert, 'insert', 'documents')).toEqual({
      insert: 'idempotency_keys',
      documents: [{ _id: key, fingerprint: 'fp', takenAt, expiresAt: new Date(record.expiresAt) }],
    })
    expect(standIn().commandNames().slice(before)).toEqual(['insert'])
  })

  it('answers the record of the other process when the server refuses the insert as a duplicate key', async () => {
    const state = await open()
    const [first, second] = [await state.idempotency(), await state.idempotency()]
    await first.take(key, record)
    expect(await second.take(key, { ...record, takenAt: takenAt + 5 })).toEqual(record)
    expect(standIn().received('insert')).toHaveLength(2)
    // Not taken over: the held record had not expired at the second take.
    const [takeOver] = standIn().received('update')
    expect(takeOver?.updates).toEqual([
      expect.objectContaining({
        q: { _id: key, expiresAt: { $lte: new Date(takenAt + 5) } },
        u: { _id: key, fingerprint: 'fp', takenAt: takenAt + 5, expiresAt: expect.any(Date) },
      }),
    ])
    expect(pick(standIn().received('find')[0], 'find', 'filter', 'limit')).toEqual({
      find: 'idempotency_keys',
      filter: { _id: key },
      limit: 1,
    })
  })

  it('takes over a key whose record expired, by the update that matched it', async () => {
    const state = await open()
    const [first, second] = [await state.idempotency(), await state.idempotency()]
    await first.take(key, { ...record, takenAt: takenAt - 60_000, expiresAt: takenAt - 1 })
    expect(await second.take(key, record)).toBeNull()
    expect(standIn().received('find')).toEqual([])
    expect(standIn().received('update')).toHaveLength(1)
  })

  it('completes only the take it names and releases only its own, while they have no answer', async () => {
    const store = await (await open()).idempotency()
    await store.take(key, record)
    await store.complete(key, { status: 201, body: '{"id":"<1@x>"}' }, takenAt)
    await store.take('k2', record)
    await store.release('k2')
    const mine = { takenAt, answer: { $exists: false } }
    expect(standIn().received('update').at(-1)?.updates).toEqual([
      expect.objectContaining({
        q: { _id: key, ...mine },
        u: { $set: { answer: { status: 201, body: '{"id":"<1@x>"}' } } },
      }),
    ])
    expect(standIn().received('delete').at(-1)?.deletes).toEqual([
      expect.objectContaining({ q: { _id: 'k2', ...mine }, limit: 1 }),
    ])
    // A key this process did not take is not released.
    const sent = standIn().commandNames().length
    await store.release('taken-elsewhere')
    expect(standIn().commandNames()).toHaveLength(sent)
  })
})
