import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RecordsPage } from '../src/stores/durable/mail-records-table.js'
import { type BundledWorker, bundledWorker } from './support/bundled-worker.js'
import type { RecordsMethod } from './support/records-table.worker.js'

// The mail records table of the mail state object, where it runs: inside workerd, in an object
// of its own (`records-table.worker.ts`) that also runs raw SQL.

const source = fileURLToPath(new URL('./support/records-table.worker.ts', import.meta.url))
let worker: BundledWorker
beforeAll(async () => {
  worker = await bundledWorker(source, {
    RECORDS: { className: 'RecordsTableObject', useSQLite: true },
  })
})
afterAll(() => worker?.dispose())

/** A call on the object named `object`: its response. */
async function call<T>(object: string, body: RecordsMethod): Promise<T> {
  const response = await worker.mf.dispatchFetch('http://records.test/', {
    method: 'POST',
    body: JSON.stringify({ object, ...body }),
  })
  return ((await response.json()) as { value: T }).value
}

const k1 = '1f'.repeat(16)
const k2 = '2e'.repeat(16)
const json = (name: string) => JSON.stringify({ email: 'ada@example.com', name })
const id = (n: number) => `6955b900${String(n).padStart(16, '0')}`
const namesOf = (rows: { json: string }[]) => rows.map((row) => JSON.parse(row.json).name)

describe('the mail records table in the Durable Object', () => {
  const planOf = (object: string, page: RecordsPage) =>
    call<string[]>(object, { method: 'planOfList', log: 'maillog', page })

  it('reads a page of one owner from the index on (log, owner, id), however many records others have', async () => {
    const object = randomUUID()
    for (let n = 1; n <= 50; n++) {
      const owner = n % 10 === 0 ? k1 : k2
      const record = { proposedId: id(n), json: json(`n${n}`), owner }
      await call(object, { method: 'insert', log: 'maillog', record })
    }
    const page = { limit: 2, before: id(50), owner: k1 }
    const rows = await call<{ json: string }[]>(object, { method: 'list', log: 'maillog', page })
    expect(namesOf(rows)).toEqual(['n40', 'n30'])
    const plan = await planOf(object, page)
    expect(plan.join('\n')).toMatch(
      /^SEARCH mail_records USING (COVERING )?INDEX mail_records_by_owner \(log=\? AND owner=\? AND id<\?\)$/,
    )
    expect(await planOf(object, { limit: 2, owner: k1 })).toEqual([
      expect.stringMatching(
        /USING (COVERING )?INDEX mail_records_by_owner \(log=\? AND owner=\?\)$/,
      ),
    ])
  })

  it("reads an admin's page, of every owner, from the primary key", async () => {
    const plan = await planOf(randomUUID(), { limit: 2, before: id(9) })
    expect(plan).toEqual(['SEARCH mail_records USING PRIMARY KEY (log=? AND id<?)'])
  })

  it('gains the owner column in the table an earlier release made, keeping its records ownerless', async () => {
    const object = randomUUID()
    // The table as the release before owners made it, with a record in it.
    const exec = (query: string, ...params: (string | number)[]) =>
      call<Record<string, unknown>[]>(object, { method: 'exec', query, params })
    await exec(
      'CREATE TABLE mail_records (log TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL, ' +
        'PRIMARY KEY (log, id)) WITHOUT ROWID',
    )
    await exec(
      'INSERT INTO mail_records (log, id, json) VALUES (?, ?, ?)',
      'maillog',
      id(1),
      json('old'),
    )
    const record = { proposedId: id(2), json: json('new'), owner: k1 }
    await call(object, { method: 'insert', log: 'maillog', record })
    const list = (page: RecordsPage) =>
      call<{ json: string }[]>(object, { method: 'list', log: 'maillog', page })
    expect(namesOf(await list({ limit: 10, owner: k1 }))).toEqual(['new'])
    expect(namesOf(await list({ limit: 10, owner: k2 }))).toEqual([])
    expect(namesOf(await list({ limit: 10 }))).toEqual(['new', 'old'])
    const indexes = await exec('PRAGMA index_list(mail_records)')
    expect(indexes.map((index) => index.name)).toContain('mail_records_by_owner')
  })
})
