import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MemoryMailLog } from '../../test/support/memory-stores/memory-mail-log.js'
import { apiKey, sendMail, type TestApp, testApp } from '../../test/support/test-app.js'
import { OutboxMailer, type OutboxMessage } from '../mailer/outbox-mailer.js'

// `apiKey` and `second-key` are two callers; `admin-key` is the operator's (ADMIN_API_KEYS).
const second = 'second-mail-api-key'
const admin = 'admin-mail-api-key'

let t: TestApp
/** The outbox's store, to put in a message of the release before owners, as it left them. */
let outboxLog: MemoryMailLog<OutboxMessage>
beforeEach(async () => {
  outboxLog = new MemoryMailLog<OutboxMessage>()
  const outbox = new OutboxMailer(outboxLog)
  t = await testApp({
    apiKeys: [apiKey, second, admin],
    adminApiKeys: [admin],
    outbox,
    mailer: outbox,
  })
})
afterEach(() => t.cleanup())

const sendAs = (key: string, name: string) =>
  sendMail(t.app, { email: `${name.toLowerCase()}@example.com`, name }, { 'x-apikey': key })

/** The names (log) or recipients (outbox) `key` lists at `path`, and the page's Link. */
async function listAs(key: string, path: string) {
  const response = await t.app.request(path, { headers: { 'x-apikey': key } })
  expect(response.status).toBe(200)
  const records = (await response.json()) as { name?: string; to?: string }[]
  return {
    seen: records.map((record) => record.name ?? record.to),
    link: response.headers.get('link'),
  }
}

describe.each([
  ['/maillog', (name: string) => name],
  ['/outbox', (name: string) => `${name.toLowerCase()}@example.com`],
])('GET %s with several keys', (path, shown) => {
  it('lists to each key only what it sent', async () => {
    await sendAs(apiKey, 'Ada')
    await sendAs(second, 'Bob')
    await sendAs(apiKey, 'Cy')
    expect((await listAs(apiKey, path)).seen).toEqual([shown('Cy'), shown('Ada')])
    expect((await listAs(second, path)).seen).toEqual([shown('Bob')])
  })

  it('lists every key\u2019s records to an admin key, which sees its own among them', async () => {
    await sendAs(apiKey, 'Ada')
    await sendAs(second, 'Bob')
    await sendAs(admin, 'Dee')
    expect((await listAs(admin, path)).seen).toEqual([shown('Dee'), shown('Bob'), shown('Ada')])
    expect((await listAs(apiKey, path)).seen).toEqual([shown('Ada')])
  })

  it('pages through one key\u2019s records alone, whatever the other keys sent between them', async () => {
    for (const name of ['A1', 'B1', 'A2', 'B2', 'B3', 'A3']) {
      await sendAs(name.startsWith('A') ? apiKey : second, name)
    }
    const pages: unknown[][] = []
    let next: string | null = `${path}?limit=2`
    while (next) {
      const { seen, link } = await listAs(apiKey, next)
      pages.push(seen)
      next = link?.match(/^<([^>]+)>; rel="next"$/)?.[1] ?? null
    }
    expect(pages).toEqual([[shown('A3'), shown('A2')], [shown('A1')]])
  })
})

describe('records made before records had owners', () => {
  it('are listed to an admin key only', async () => {
    await t.mailLog.insert({ email: 'old@example.com', name: 'Old', output: {} })
    const message = { from: 'a@b.c', to: 'old@example.com', subject: 's', text: 't' }
    await outboxLog.insert({ ...message, id: '<1@outbox.local>', queuedAt: '2026-01-01T00:00:00Z' })
    await sendAs(apiKey, 'Ada')
    expect((await listAs(apiKey, '/maillog')).seen).toEqual(['Ada'])
    expect((await listAs(admin, '/maillog')).seen).toEqual(['Ada', 'Old'])
    expect((await listAs(apiKey, '/outbox')).seen).toEqual(['ada@example.com'])
    expect((await listAs(admin, '/outbox')).seen).toEqual(['ada@example.com', 'old@example.com'])
  })
})
