import { StoreUnavailableError } from '@movies-and-mail/store-kit'
import { MongoStandIn } from '@movies-and-mail/test-kit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ItemStore } from '../item-store.js'
import { MongoItemStore } from './mongo-item-store.js'

const timeoutMs = 500
/** The timeout and a slow machine's scheduling; the hang this guards against lasted minutes. */
const boundMs = 2_000
const movie = { id: 'tt0078748', name: 'Alien', genre: 'Horror' }

type Operation = (store: ItemStore) => Promise<unknown>

/** Each operation of the port, run to the end. */
const operations: Record<string, Operation> = {
  list: async (store) => store.list(),
  find: async (store) => store.find(movie.id),
  insert: (store) => store.insert(movie),
  update: (store) => store.update(movie.id, { genre: 'Sci-fi' }),
  remove: (store) => store.remove(movie.id),
  ping: (store) => store.ping(),
}
/** The first command each sends; a create reads the newest `_id` before its insert. */
const sentAs: Record<string, string> = { list: 'find', insert: 'find', remove: 'delete' }
const names = Object.keys(operations)

/** How `operation` settled, and after how many milliseconds. */
async function timed(operation: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now()
  const error = await operation().then(
    () => undefined,
    (error: unknown) => error,
  )
  return { error, ms: performance.now() - started }
}

describe('MongoItemStore on a database that stops answering', () => {
  let standIn: MongoStandIn
  let store: MongoItemStore
  const run = (name: string) => timed(() => (operations[name] as Operation)(store))
  /** `count` operations started together, every kind in turn. */
  const allAtOnce = (count: number) =>
    Promise.all(Array.from({ length: count }, (_, n) => run(names[n % names.length] as string)))
  /** Waits until every operation succeeds again, as it must once the database answers. */
  const recovered = async () => {
    const deadline = Date.now() + 5_000
    while ((await run('ping')).error && Date.now() < deadline) {}
    for (const name of names) expect((await run(name)).error, name).toBeUndefined()
  }

  beforeEach(async () => {
    standIn = await MongoStandIn.start()
    store = await MongoItemStore.connect({ url: standIn.url, timeoutMs })
  })
  afterEach(async () => {
    standIn.answer()
    await store.close()
    await standIn.close()
  })

  describe.each([
    ['answering heartbeats only', 'commands'],
    ['answering nothing', 'all'],
  ] as const)('%s', (_, what) => {
    it.each(names)('%s rejects with StoreUnavailableError within the timeout', async (name) => {
      standIn.stall(what)
      const { error, ms } = await run(name)
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect(ms).toBeLessThan(boundMs)
    })
  })

  it('sends each command, and gives up on the answer that never comes', async () => {
    const before = standIn.commandNames().length
    standIn.stall()
    await Promise.all(names.map(run))
    const sent = names.map((name) => sentAs[name] ?? name)
    expect(standIn.commandNames().slice(before).sort()).toEqual(sent.sort())
  })

  it('rejects 120 operations at once within the timeout, then serves all of them again', async () => {
    standIn.stall()
    const stalled = await allAtOnce(120)
    for (const { error, ms } of stalled) {
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect(ms).toBeLessThan(boundMs)
    }
    standIn.answer()
    await recovered()
    // 30 at a time: the stand-in evaluates every write in this process, within the 500 ms each
    // operation has, and a write's list is read whole after it.
    for (let batch = 0; batch < 4; batch += 1) {
      for (const { error } of await allAtOnce(30)) expect(error).toBeUndefined()
    }
  })

  it('bounds each later batch of a list, each within the timeout of its own', async () => {
    for (let n = 0; n < 250; n++) await store.insert({ ...movie, id: `tt${n}` })
    expect(JSON.parse(new TextDecoder().decode((await store.list()).body))).toHaveLength(250)
    standIn.stallAt('getMore')
    const { error, ms } = await timed(() => store.list())
    expect(error).toBeInstanceOf(StoreUnavailableError)
    expect(ms).toBeLessThan(boundMs)
    expect(standIn.commandNames().at(-1)).toBe('getMore')
  })

  it('says a write was stored when the list it answers with cannot be read', async () => {
    // The list's read, not the read of the newest `_id` that comes before the insert.
    standIn.stallAt((name, body) => name === 'find' && body.limit === undefined)
    const { error, ms } = await timed(() => store.insert(movie))
    expect(error).toBeInstanceOf(StoreUnavailableError)
    expect((error as Error).message).toBe(
      'the write was stored, but the list could not be read: read it again with GET /items',
    )
    expect(ms).toBeLessThan(boundMs)
    standIn.answer()
    const list = JSON.parse(new TextDecoder().decode((await store.list()).body))
    expect(list).toEqual([expect.objectContaining(movie)])
  })

  it('rejects operations whose connections are dropped, then recovers', async () => {
    standIn.stall()
    const inFlight = allAtOnce(12)
    await new Promise((resolve) => setTimeout(resolve, 50))
    standIn.dropConnections()
    for (const { error, ms } of await inFlight) {
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect(ms).toBeLessThan(boundMs)
    }
    for (const name of names) expect((await run(name)).error).toBeInstanceOf(StoreUnavailableError)
    standIn.answer()
    await recovered()
  })

  it('closes within the timeout, failing the operations still waiting for an answer', async () => {
    standIn.stall()
    const inFlight = allAtOnce(120)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const { error, ms } = await timed(() => store.close())
    expect(error).toBeUndefined()
    expect(ms).toBeLessThan(boundMs)
    for (const settled of await inFlight) expect(settled.error).toBeDefined()
  })
})
