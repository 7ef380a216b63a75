import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BuiltEntry, killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ensureBuilt, failedStart, startServer } from './support/run-server.js'

// What each API key sees of the mail log and the outbox, and how a recipient is counted, on the
// built Node entry with its embedded store.

let dataDir: string
beforeAll(ensureBuilt)
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mail-service-owners-'))
  // A record of the release before owners, made yesterday, in the log file it kept (ids of the
  // time counted milliseconds): imported at the first start, without an owner.
  const _id = `${(Date.now() - 86_400_000).toString(16).padStart(12, '0')}0000deadbeef`
  const old = { _id, email: 'old@example.com', name: 'Old', output: {} }
  await writeFile(join(dataDir, 'maillog.db'), `${JSON.stringify(old)}\n`)
})
afterEach(async () => {
  await killBuiltEntries()
  await rm(dataDir, { recursive: true, force: true })
})

const keys = {
  API_KEYS: 'first-mail-api-key,second-mail-api-key,operator-mail-api-key',
  ADMIN_API_KEYS: 'operator-mail-api-key',
}

const send = (server: BuiltEntry, key: string, email: string, name = 'Ada') =>
  fetch(`${server.url}/sendmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-apikey': key },
    body: JSON.stringify({ email, name }),
  })

/** The names (`/maillog`) or recipients (`/outbox`) `key` is answered. */
async function seenBy(server: BuiltEntry, key: string, path: '/maillog' | '/outbox') {
  const response = await fetch(`${server.url}${path}`, { headers: { 'x-apikey': key } })
  expect(response.status).toBe(200)
  const records = (await response.json()) as { name?: string; to?: string }[]
  return records.map((record) => record.name ?? record.to)
}

describe('node dist/server.js with several API keys', () => {
  it("lists each key's own records, every record to ADMIN_API_KEYS, and still after a restart", async () => {
    const first = await startServer({ DATA_DIR: dataDir, ...keys })
    expect((await send(first, 'first-mail-api-key', 'ada@example.com', 'Ada')).status).toBe(201)
    expect((await send(first, 'second-mail-api-key', 'bob@example.com', 'Bob')).status).toBe(201)
    await first.stop()
    const server = await startServer({ DATA_DIR: dataDir, ...keys })
    expect(await seenBy(server, 'first-mail-api-key', '/maillog')).toEqual(['Ada'])
    expect(await seenBy(server, 'second-mail-api-key', '/maillog')).toEqual(['Bob'])
    expect(await seenBy(server, 'operator-mail-api-key', '/maillog')).toEqual(['Bob', 'Ada', 'Old'])
    expect(await seenBy(server, 'second-mail-api-key', '/outbox')).toEqual(['bob@example.com'])
    expect(await seenBy(server, 'operator-mail-api-key', '/outbox')).toEqual([
      'bob@example.com',
      'ada@example.com',
    ])
    // The store holds each key's digest, never the key.
    await server.stop()
    const stored = await readFile(join(dataDir, 'mail-service.mdb'))
    expect(stored.includes('bob@example.com')).toBe(true)
    expect(stored.includes('first-mail-api-key')).toBe(false)
    expect(stored.includes('second-mail-api-key')).toBe(false)
  })

  it('counts one inbox once, whatever the case or +tag of its address', async () => {
    const server = await startServer({ DATA_DIR: dataDir, ...keys })
    for (let n = 0; n < 3; n++) {
      expect((await send(server, 'first-mail-api-key', 'victim@gmail.com')).status).toBe(201)
    }
    for (const email of ['Victim@gmail.com', 'VICTIM@gmail.com', 'victim+1@gmail.com']) {
      expect([email, (await send(server, 'second-mail-api-key', email)).status]).toEqual([
        email,
        429,
      ])
    }
    expect((await send(server, 'second-mail-api-key', 'v.ictim@gmail.com')).status).toBe(201)
  })

  it('refuses to start with an admin key that is not one of API_KEYS, and never prints it', async () => {
    const { code, output } = await failedStart({
      DATA_DIR: dataDir,
      API_KEYS: 'first-mail-api-key',
      ADMIN_API_KEYS: 'operator-secret-api-key',
    })
    expect(code).toBe(1)
    expect(output).toContain(
      'ADMIN_API_KEYS (value not shown): each key must also be one of API_KEYS; key 1 of 1 is not',
    )
    expect(output).not.toContain('operator-secret-api-key')
  })
})

describe('node dist/server.js without API_KEYS', () => {
  it('makes its key an admin key: the one key reads every record, those made before too', async () => {
    const server = await startServer({ DATA_DIR: dataDir })
    const key = /^ {2}x-apikey: (\S+)$/m.exec(server.output)?.[1] ?? ''
    expect((await send(server, key, 'ada@example.com')).status).toBe(201)
    expect(await seenBy(server, key, '/maillog')).toEqual(['Ada', 'Old'])
  })
})
