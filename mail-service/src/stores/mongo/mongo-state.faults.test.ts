import { StoreUnavailableError } from '@movies-and-mail/store-kit'
import { MongoStandIn } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import {
  boundMs,
  timed,
  timeoutMs,
  useStandInState,
} from '../../../test/support/mongo-stand-in-state.js'
import type { IdempotencyStore } from '../../ports/idempotency-store.js'
import type { MailLog } from '../../ports/mail-log.js'
import type { Bucket, SendCounter } from '../../ports/send-counter.js'
import { MongoState } from './mongo-state.js'

const { open, standIn } = useStandInState()
const bucket: Bucket = { key: 'to:ada@example.com', limit: { count: 3, windowMs: 3_600_000 } }
const record = () => ({ fingerprint: 'fp', takenAt: Date.now(), expiresAt: Date.now() + 60_000 })
/** The record of the keys taken before each operation. */
const held = record()

type Stores = { keys: IdempotencyStore; counter: SendCounter; log: MailLog<object> }
type Operation = (stores: Stores, n: number) => Promise<unknown>

/** Each operation of the three stores; complete and release act on keys taken before. */
const operations: Record<string, Operation> = {
  'idempotency take': ({ keys }, n) => keys.take(`new-${n}`, record()),
  'idempotency complete': ({ keys }) =>
    keys.complete('held', { status: 201, body: '{}' }, held.takenAt),
  'idempotency release': ({ keys }) => keys.release('held too'),
  'send counter take': ({ counter }) => counter.take([bucket], Date.now()),
  'send counter giveBack': ({ counter }) => counter.giveBack([bucket], Date.now(), Date.now()),
  'mail log insert': ({ log }) => log.insert({ email: 'ada@example.com' }),
  'mail log list': ({ log }) => log.list({ limit: 10 }),
  'mail log prune': ({ log }) => log.prune(new Date()),
  'mail log ping': ({ log }) => log.ping(),
}
const names = Object.keys(operations)

async function openStores(): Promise<Stores> {
  const state = await open()
  const stores = {
    keys: await state.idempotency(),
    counter: await state.sendCounter(),
    log: await state.open('maillog'),
  }
  await takeHeldKeys(stores)
  return stores
}

async function takeHeldKeys({ keys }: Stores): Promise<void> {
  for (const key of ['held', 'held too']) await keys.take(key, held)
}

describe('the MongoDB state on a database that stops answering', () => {
  describe.each([
    ['answering heartbeats only', 'commands'],
    ['answering nothing', 'all'],
  ] as const)('%s', (_, what) => {
    it.each(names)('%s rejects with StoreUnavailableError within the timeout', async (name) => {
      const stores = await openStores()
      standIn().stall(what)
      const { error, ms } = await timed(() => (operations[name] as Operation)(stores, 0))
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect(ms).toBeLessThan(boundMs)
    })
  })

  it('rejects operations whose connections are dropped, then serves all of them again', async () => {
    const stores = await openStores()
    standIn().stall()
    const inFlight = Promise.all(
      names.map((name, n) => timed(() => (operations[name] as Operation)(stores, n))),
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    standIn().dropConnections()
    for (const { error, ms } of await inFlight) {
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect(ms).toBeLessThan(boundMs)
    }
    standIn().answer()
    const deadline = Date.now() + 5_000
    while ((await timed(() => stores.log.ping())).error && Date.now() < deadline) {}
    await takeHeldKeys(stores)
    for (const [n, name] of names.entries()) {
      expect(
        (await timed(() => (operations[name] as Operation)(stores, 100 + n))).error,
        name,
      ).toBeUndefined()
    }
  })
})

describe('MongoState.connect', () => {
  it.each([
    ['answers nothing', 'all'],
    ['answers heartbeats only', 'commands'],
  ] as const)('gives up within the timeout on a server that %s', async (_, what) => {
    const server = await MongoStandIn.start()
    server.stall(what)
    try {
      const url = server.url
      const connecting = MongoState.connect({
        ...{ url, dbName: 'data', timeoutMs },
        ...{ retentionDays: 90 },
      })
      const { error, ms } = await timed(() => connecting)
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect((error as Error).message).toMatch(/^database unavailable: /)
      expect(ms).toBeLessThan(boundMs)
    } finally {
      await server.close()
    }
  })
})
