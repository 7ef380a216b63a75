import { randomBytes } from 'node:crypto'
import { useMongoServer } from '@movies-and-mail/test-kit'
import { MongoClient } from 'mongodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Item } from '../src/store/item-store.js'
import { temporaryDataDir } from './support/built-service.js'
import { WorkerUnderTest } from './support/worker-under-test.js'

const json = { 'content-type': 'application/json' }
const movie = (n: number) => ({ id: `tt${n}`, name: `Movie ${n}`, genre: 'Drama' })

/** Posts one movie; answers the status and the list. */
async function post(worker: WorkerUnderTest, n: number) {
  const response = await worker.request('/items', {
    method: 'POST',
    headers: json,
    body: JSON.stringify(movie(n)),
  })
  return { status: response.status, list: (await response.json()) as Item[] }
}

describe('the Worker on a MongoDB server', () => {
  const { url } = useMongoServer('MongoDB-on-Worker suite')
  // One database per run, dropped at the end.
  const dbName = `items_worker_${Date.now()}_${randomBytes(3).toString('hex')}`
  let worker: WorkerUnderTest
  beforeAll(async () => {
    worker = await WorkerUnderTest.start(
      { CONNECTION_URL: url(), DB_NAME: dbName, CONNECT_TIMEOUT_MS: '5000' },
      await temporaryDataDir(),
      'mongodb',
    )
  })
  afterAll(async () => {
    await worker?.stop()
    const client = await new MongoClient(url()).connect()
    await client.db(dbName).dropDatabase()
    await client.close()
  })

  it('runs CRUD, every mutation answering the full list', async () => {
    for (let n = 1; n <= 3; n++) expect((await post(worker, n)).status).toBe(201)
    const updated = await worker.request('/items/tt2', {
      method: 'PUT',
      headers: json,
      body: '{"genre":"Comedy"}',
    })
    expect(updated.status).toBe(200)
    const deleted = await worker.request('/items/tt1', { method: 'DELETE' })
    const list = (await deleted.json()) as Item[]
    expect(list).toEqual([
      { _id: expect.stringMatching(/^[0-9a-f]{24}$/), ...movie(2), genre: 'Comedy' },
      { _id: expect.stringMatching(/^[0-9a-f]{24}$/), ...movie(3) },
    ])
    expect(await (await worker.request('/items/tt3')).json()).toEqual(list[1])
    expect((await worker.request('/items/tt1')).status).toBe(404)
    expect((await post(worker, 3)).status).toBe(409)
  })

  it('keeps the items in the database across a restart of the runtime', async () => {
    const before = await (await worker.request('/items')).json()
    await worker.restart()
    expect(await (await worker.request('/items')).json()).toEqual(before)
  })
})
