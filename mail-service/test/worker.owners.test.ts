import type { Miniflare } from 'miniflare'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ensureBuilt } from './support/run-server.js'
import {
  bindings,
  outbound,
  sendTo,
  warmedUp,
  workerForThisTest,
} from './support/worker-under-test.js'

// What each API key sees of the mail log and the outbox, and how a recipient is counted, on the
// Workers runtime: the logs in the Durable Object, or in a Deta Base.

const { DETA_PROJECT_KEY: _, DETA_BASE_HOST: __, ...withoutDeta } = bindings
const keys = {
  API_KEYS: 'first-mail-api-key,second-mail-api-key,operator-mail-api-key',
  ADMIN_API_KEYS: 'operator-mail-api-key',
}

beforeAll(() => ensureBuilt())
beforeEach(() => outbound.reset())

const send = (instance: Miniflare, key: string, email: string, name = 'Ada') =>
  sendTo(instance, { email, name }, { 'x-apikey': key })

/** The names (`/maillog`) or recipients (`/outbox`) `key` is answered. */
async function seenBy(instance: Miniflare, key: string, path: '/maillog' | '/outbox') {
  const response = await instance.dispatchFetch(`http://worker.test${path}`, {
    headers: { 'x-apikey': key },
  })
  expect(response.status).toBe(200)
  const records = (await response.json()) as { name?: string; to?: string }[]
  return records.map((record) => record.name ?? record.to)
}

describe.each([
  ['in the Durable Object', withoutDeta],
  ['in a Deta Base', bindings],
])('the Worker with several API keys, its logs %s', (_where, settings) => {
  it("lists each key's own records in the log and the outbox, and every record to an admin key", async () => {
    const worker = await warmedUp(
      workerForThisTest({ ...settings, ...keys, MAIL_TRANSPORT: 'outbox' }),
    )
    expect((await send(worker, 'first-mail-api-key', 'ada@example.com', 'Ada')).status).toBe(201)
    expect((await send(worker, 'second-mail-api-key', 'bob@example.com', 'Bob')).status).toBe(201)
    expect((await send(worker, 'first-mail-api-key', 'cy@example.com', 'Cy')).status).toBe(201)
    expect(await seenBy(worker, 'first-mail-api-key', '/maillog')).toEqual(['Cy', 'Ada'])
    expect(await seenBy(worker, 'second-mail-api-key', '/maillog')).toEqual(['Bob'])
    expect(await seenBy(worker, 'operator-mail-api-key', '/maillog')).toEqual(['Cy', 'Bob', 'Ada'])
    expect(await seenBy(worker, 'second-mail-api-key', '/outbox')).toEqual(['bob@example.com'])
    expect(await seenBy(worker, 'operator-mail-api-key', '/outbox')).toEqual([
      'cy@example.com',
      'bob@example.com',
      'ada@example.com',
    ])
  })

  it("answers another key's use of an Idempotency-Key as a request of its own", async () => {
    const worker = await warmedUp(
      workerForThisTest({ ...settings, ...keys, MAIL_TRANSPORT: 'outbox' }),
    )
    const as = (key: string) => ({ 'x-apikey': key, 'idempotency-key': 'signup-4711' })
    const ada = { email: 'ada@example.com', name: 'Ada' }
    const first = await sendTo(worker, ada, as('first-mail-api-key'))
    const other = await sendTo(worker, ada, as('second-mail-api-key'))
    expect([first.status, other.status]).toEqual([201, 201])
    expect(other.headers.get('idempotent-replayed')).toBeNull()
    const idOf = async (response: { json(): Promise<unknown> }) =>
      ((await response.json()) as { id: string }).id
    const ids = [await idOf(first), await idOf(other)]
    expect(ids[1]).not.toBe(ids[0])
    expect(await seenBy(worker, 'second-mail-api-key', '/outbox')).toEqual(['ada@example.com'])
  })

  it('counts one inbox once, whatever the case or +tag of its address', async () => {
    const worker = await warmedUp(workerForThisTest({ ...settings, ...keys }))
    for (let n = 0; n < 3; n++) {
      expect((await send(worker, 'first-mail-api-key', 'victim@gmail.com')).status).toBe(201)
    }
    for (const email of ['Victim@gmail.com', 'VICTIM@gmail.com', 'victim+1@gmail.com']) {
      const refused = await send(worker, 'second-mail-api-key', email)
      expect([email, refused.status]).toEqual([email, 429])
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    }
    expect((await send(worker, 'second-mail-api-key', 'v.ictim@gmail.com')).status).toBe(201)
    // Delivered as given.
    expect(outbound.toMailgun().map(({ fields }) => fields?.[1]?.[1])).toEqual([
      'victim@gmail.com',
      'victim@gmail.com',
      'victim@gmail.com',
      'v.ictim@gmail.com',
    ])
  })
})

describe('the Worker with its logs in a Deta Base', () => {
  it('files each record under the digest of its key, never the key', async () => {
    const worker = await warmedUp(workerForThisTest({ ...bindings, ...keys }))
    await send(worker, 'first-mail-api-key', 'ada@example.com')
    const [record] = outbound.deta.items('maillog')
    expect(record?.owner).toMatch(/^[0-9a-f]{32}$/)
    expect(JSON.stringify(outbound.deta.requests)).not.toContain('first-mail-api-key')
  })
})

describe('the Worker with an admin key that is not one of API_KEYS', () => {
  it('serves nothing, as with any bad setting', async () => {
    const worker = workerForThisTest({
      ...withoutDeta,
      API_KEYS: 'first-mail-api-key',
      ADMIN_API_KEYS: 'an-admin-not-listed-key',
    })
    const response = await worker.dispatchFetch('http://worker.test/maillog', {
      headers: { 'x-apikey': 'first-mail-api-key' },
    })
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      error: 'the service is misconfigured; its log says which setting',
    })
  })
})
