// A test-only Worker: an object of its own over the mail records table (`MailRecordsTable`),
// which also runs raw SQL, so that a test can make the table an earlier release made, and read
// the plan SQLite chose for the query a page ran. `POST /` with a `RecordsCall` runs one method
// on the object `object` names, answered `{ value }`. `durable-records.in-workerd.test.ts`
// bundles it (`bundled-worker.ts`) and runs it under Miniflare.
import { DurableObject } from 'cloudflare:workers'
import type { DurableObjectNamespace, SqlStorage } from '@cloudflare/workers-types'
import {
  type LogName,
  MailRecordsTable,
  type NewRecord,
  type RecordsPage,
} from '../../src/stores/durable/mail-records-table.js'

/** One method of the object and its arguments. */
export type RecordsMethod =
  | { method: 'exec'; query: string; params: (string | number)[] }
  | { method: 'insert'; log: LogName; record: NewRecord }
  | { method: 'list'; log: LogName; page: RecordsPage }
  | { method: 'planOfList'; log: LogName; page: RecordsPage }

export type RecordsCall = { object: string } & RecordsMethod

/** The table, opened afresh on each call as the mail state object opens it when it starts. */
export class RecordsTableObject extends DurableObject<unknown> {
  exec(query: string, params: (string | number)[]): unknown[] {
    return this.ctx.storage.sql.exec(query, ...params).toArray()
  }

  insert(log: LogName, record: NewRecord): string {
    return new MailRecordsTable(this.ctx.storage.sql).insert(log, record)
  }

  list(log: LogName, page: RecordsPage): unknown[] {
    return new MailRecordsTable(this.ctx.storage.sql).list(log, page)
  }

  /** What SQLite's EXPLAIN QUERY PLAN says of the query `list` ran for `page`. */
  planOfList(log: LogName, page: RecordsPage): string[] {
    const { sql } = this.ctx.storage
    const ran: [string, unknown[]][] = []
    const recording = new Proxy(sql, {
      get: (target, name) =>
        name === 'exec'
          ? (query: string, ...params: unknown[]) => {
              ran.push([query, params])
              return target.exec(query, ...params)
            }
          : Reflect.get(target, name),
    }) satisfies SqlStorage
    new MailRecordsTable(recording).list(log, page)
    const [query = '', params = []] = ran.findLast(([query]) => query.startsWith('SELECT')) ?? []
    return sql
      .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`, ...params)
      .toArray()
      .map(({ detail }) => detail)
  }
}

export default {
  async fetch(
    request: Request,
    bindings: { RECORDS: DurableObjectNamespace<RecordsTableObject> },
  ): Promise<Response> {
    const call = (await request.json()) as RecordsCall
    const object = bindings.RECORDS.get(bindings.RECORDS.idFromName(call.object))
    const value =
      call.method === 'exec'
        ? await object.exec(call.query, call.params)
        : call.method === 'insert'
          ? await object.insert(call.log, call.record)
          : call.method === 'list'
            ? await object.list(call.log, call.page)
            : await object.planOfList(call.log, call.page)
    return Response.json({ value })
  },
}
