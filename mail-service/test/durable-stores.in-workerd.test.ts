import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeIdempotencyStoreContract } from './contracts/idempotency-store.contract.js'
import { describeMailEventsContract } from './contracts/mail-events.contract.js'
import { describeMailLogContract } from './contracts/mail-log.contract.js'
import { describeSendCounterContract } from './contracts/send-counter.contract.js'
import { WorkerStateHarness } from './support/worker-state-harness.js'

// The adapters of the mail state object, run where the Worker runs them: inside workerd, under
// Miniflare, through a harness Worker. Each fixture is an object of its own, so it starts
// empty; `reopen` is a new adapter over the same object, as another isolate or a restarted one
// reaches it.

let harness: WorkerStateHarness
beforeAll(async () => {
  harness = await WorkerStateHarness.start()
})
afterAll(() => harness?.dispose())

describeIdempotencyStoreContract('Durable Object (in workerd)', async () => {
  const object = randomUUID()
  return {
    store: harness.idempotencyStore(object),
    reopen: async () => harness.idempotencyStore(object),
    cleanup: async () => {},
  }
})

describeSendCounterContract('Durable Object (in workerd)', async () => {
  const object = randomUUID()
  return {
    counter: harness.sendCounter(object),
    reopen: async () => harness.sendCounter(object),
    cleanup: async () => {},
  }
})

describeMailLogContract('Durable Object (in workerd)', async ({ ids }) => {
  const object = randomUUID()
  return {
    log: harness.mailLog(object, { ids }),
    reopen: async () => harness.mailLog(object),
    cleanup: async () => {},
  }
})

describeMailEventsContract('Durable Object (in workerd)', async () => {
  const object = randomUUID()
  return {
    events: harness.mailEvents(object),
    other: harness.mailEvents(object),
    reopen: async () => harness.mailEvents(object),
    cleanup: async () => {},
  }
})

describe('DurableIdempotencyStore', () => {
  const hour = 3_600_000
  const record = (takenAt: number, fingerprint = 'body-1') => ({
    fingerprint,
    takenAt,
    expiresAt: takenAt + 24 * hour,
  })

  it('lets one of many simultaneous takes of a key, from several isolates, take it', async () => {
    const object = randomUUID()
    const now = Date.now()
    const takes = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        harness.idempotencyStore(object).take('k', record(now + n)),
      ),
    )
    expect(takes.filter((held) => held === null)).toHaveLength(1)
  })

  it('never frees nor rewrites a key that has its answer', async () => {
    const store = harness.idempotencyStore(randomUUID())
    const now = Date.now()
    await store.take('k', record(now))
    await store.complete('k', { status: 201, body: 'first' }, now)
    await store.release('k')
    await store.complete('k', { status: 201, body: 'second' }, now)
    expect((await store.take('k', record(now + 2 * hour)))?.answer).toEqual({
      status: 201,
      body: 'first',
    })
  })
})

describe('DurableSendCounter', () => {
  it('counts for every isolate: two adapters over the object share its buckets', async () => {
    const object = randomUUID()
    const bucket = { key: 'to:ada@example.com', limit: { count: 2, windowMs: 60_000 } }
    const now = Date.now()
    expect((await harness.sendCounter(object).take([bucket], now)).admitted).toBe(true)
    expect((await harness.sendCounter(object).take([bucket], now)).admitted).toBe(true)
    expect((await harness.sendCounter(object).take([bucket], now)).admitted).toBe(false)
  })
})

describe('DurableMailLog', () => {
  const entry = (name: string) => ({ email: 'ada@example.com', name, output: {} })

  it('keeps the order the object stored records in, whatever clock proposed their ids', async () => {
    const object = randomUUID()
    const ahead = harness.mailLog(object, { ids: { next: () => 'f0000000000000000000000a' } })
    const behind = harness.mailLog(object, { ids: { next: () => '00000001000000000000000a' } })
    const first = await ahead.insert(entry('first'))
    const second = await behind.insert(entry('second'))
    expect(second._id > first._id).toBe(true)
    const listed = await behind.list({ limit: 10 })
    expect(listed.map(({ name }) => name)).toEqual(['second', 'first'])
  })

  it('forgets records older than retentionDays as new ones come', async () => {
    const object = randomUUID()
    const seconds = (date: number) =>
      Math.floor(date / 1000)
        .toString(16)
        .padStart(8, '0')
    const at = (days: number) => `${seconds(Date.now() - days * 86_400_000)}000000000000000a`
    await harness.mailLog(object, { ids: { next: () => at(40) } }).insert(entry('old'))
    await harness.mailLog(object, { ids: { next: () => at(10) } }).insert(entry('recent'))
    const log = harness.mailLog(object, { retentionDays: 30 })
    await log.insert(entry('new'))
    expect((await log.list({ limit: 10 })).map(({ name }) => name)).toEqual(['new', 'recent'])
  })
})
