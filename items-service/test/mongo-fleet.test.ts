import { randomBytes } from 'node:crypto'
import {
  type BuiltEntry,
  clockAhead,
  killBuiltEntries,
  useMongoServer,
} from '@movies-and-mail/test-kit'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'
import { EventReader } from './support/event-reader.js'

const json = { 'content-type': 'application/json' }
type Listed = { _id: string; id: string }

describe('two items-service processes on one MongoDB database', () => {
  // A replica set, as Atlas is: the change feed follows the database's change stream.
  const server = useMongoServer('Two items-service processes on one MongoDB database')
  let collections = 0
  const dbName = `items_fleet_${Date.now()}_${randomBytes(3).toString('hex')}`
  afterEach(killBuiltEntries)
  afterAll(killBuiltEntries)

  /** Two processes on one collection of their own; `ahead` moves the second one's clock. */
  async function startFleet({ ahead = 0 } = {}): Promise<[BuiltEntry, BuiltEntry]> {
    const settings = {
      CONNECTION_URL: server.url(),
      DB_NAME: dbName,
      COLLECTION_NAME: `movies_${++collections}`,
      CONNECT_TIMEOUT_MS: '5000',
    }
    const one = await startService({ ...settings, DATA_DIR: await temporaryDataDir() })
    const other = await startService({
      ...settings,
      DATA_DIR: await temporaryDataDir(),
      ...(ahead > 0 && clockAhead(ahead)),
    })
    return [one, other]
  }

  const create = (service: BuiltEntry, id: string) =>
    fetch(`${service.url}/items`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ id, name: `Movie ${id}`, genre: 'Drama' }),
    })
  const ids = async (service: BuiltEntry, query = '') =>
    ((await (await fetch(`${service.url}/items${query}`)).json()) as Listed[]).map(({ id }) => id)

  it('let one of two creates of one id through, the other 409', async () => {
    const [one, other] = await startFleet()
    for (let round = 0; round < 5; round += 1) {
      const answers = await Promise.all([create(one, `tt${round}`), create(other, `tt${round}`)])
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409])
    }
    expect(await ids(other)).toEqual(['tt0', 'tt1', 'tt2', 'tt3', 'tt4'])
  })

  it('let one of two writes under one If-Match through, the other 412', async () => {
    const [one, other] = await startFleet()
    await create(one, 'tt1')
    const etag = (await fetch(`${one.url}/items/tt1`)).headers.get('etag') ?? ''
    const put = (service: BuiltEntry, genre: string) =>
      fetch(`${service.url}/items/tt1`, {
        method: 'PUT',
        headers: { ...json, 'if-match': etag },
        body: JSON.stringify({ genre }),
      })
    const answers = await Promise.all([put(one, 'Crime'), put(other, 'Noir')])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412])
  })

  it.each([
    ['on one clock', 0],
    ['with the second 30 s ahead', 30_000],
  ])('list creates alternating between them in insertion order, %s', async (_, ahead) => {
    const [one, other] = await startFleet({ ahead })
    const created = Array.from({ length: 12 }, (_, n) => `tt${String(n).padStart(2, '0')}`)
    for (const [n, id] of created.entries()) {
      expect((await create(n % 2 === 0 ? one : other, id)).status).toBe(201)
    }
    expect(await ids(one)).toEqual(created)
    expect(await ids(other)).toEqual(created)
    const listed = (await (await fetch(`${one.url}/items`)).json()) as Listed[]
    const keys = listed.map(({ _id }) => _id)
    expect([...keys].sort()).toEqual(keys)
  })

  it.each([
    ['on one clock', 0],
    ['with the other 30 s behind', 30_000],
  ])(
    'never let a pager on one miss an item the other creates between its reads, %s',
    async (_, ahead) => {
      // The pager's process is the one ahead: the creates of the other come from a slower clock.
      const [other, pagerSide] = await startFleet({ ahead })
      for (const id of ['a1', 'a2', 'a3']) await create(pagerSide, id)
      const seen: string[] = []
      let next: string | null = '/items?limit=2'
      for (let page = 0; next && page < 10; page += 1) {
        const response: Response = await fetch(`${pagerSide.url}${next}`)
        seen.push(...((await response.json()) as Listed[]).map(({ id }) => id))
        await create(other, `b${page}`)
        next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1] ?? null
      }
      const all = await ids(pagerSide)
      // Each page's read saw every create before it; the last create came after the last read.
      expect(seen).toEqual(all.slice(0, -1))
      expect(new Set(seen).size).toBe(seen.length)
    },
  )

  it('carry every write of either on both change feeds, under the same event ids', async () => {
    const [one, other] = await startFleet()
    const follow = async (service: BuiltEntry) => {
      const reader = new EventReader((await fetch(`${service.url}/items/events`)).body)
      await reader.block()
      return reader
    }
    const feeds = [await follow(one), await follow(other)]
    await create(one, 'tt1')
    await create(other, 'tt2')
    await fetch(`${other.url}/items/tt1`, { method: 'PUT', headers: json, body: '{"genre":"X"}' })
    await fetch(`${one.url}/items/tt2`, { method: 'DELETE' })
    const [mine, theirs] = await Promise.all(
      feeds.map(async (feed) => {
        const events = []
        for (let n = 0; n < 4; n += 1) {
          const { event, id, data } = await feed.event(5_000)
          events.push({ event, id, data })
        }
        await feed.cancel()
        return events
      }),
    )
    const data = (mine ?? []).map((event) => JSON.parse(event.data))
    expect(mine?.map(({ event }) => event)).toEqual(['created', 'created', 'updated', 'deleted'])
    expect(data[0]).toMatchObject({ id: 'tt1' })
    expect(data[1]).toMatchObject({ id: 'tt2' })
    expect(data[2]).toMatchObject({ id: 'tt1', genre: 'X', _id: data[0]._id })
    // A delete carries the item where the server keeps pre-images, its `_id` at least.
    expect(data[3]._id).toBe(data[1]._id)
    expect(theirs).toEqual(mine)
  })
})
