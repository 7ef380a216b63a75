import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BuiltEntry, killBuiltEntries, SmallDisk } from '@movies-and-mail/test-kit'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ensureBuilt, failedStart, startServer } from './support/run-server.js'

// Long enough that redacting it from the output leaves the rest of a line as it was.
const apiKey = 'store-test-key-4f1d'
let dataDir: string

beforeAll(ensureBuilt)
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mail-service-store-'))
})
afterEach(async () => {
  await killBuiltEntries()
  await rm(dataDir, { recursive: true, force: true })
})

function start(env: Record<string, string> = {}): Promise<BuiltEntry> {
  return startServer({ DATA_DIR: dataDir, API_KEYS: apiKey, ...env })
}

async function killed(server: BuiltEntry): Promise<void> {
  server.kill('SIGKILL')
  await server.exited
}

const send = (server: BuiltEntry, n: number) =>
  fetch(`${server.url}/sendmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-apikey': apiKey },
    body: JSON.stringify({ email: `reader${n}@example.com`, name: `Reader ${n}` }),
  })

const read = async (server: BuiltEntry, path: string) => {
  const response = await fetch(`${server.url}${path}`, { headers: { 'x-apikey': apiKey } })
  return { status: response.status, body: await response.json() }
}

describe('two processes on one DATA_DIR', () => {
  it('refuses the second at start, naming the directory and the first one', async () => {
    const first = await start()
    const second = await failedStart({ DATA_DIR: dataDir, API_KEYS: apiKey })
    expect(second.code).toBe(1)
    expect(second.output).toContain(
      `mail-service cannot start: DATA_DIR ${dataDir} is in use by mail-service (pid ${first.pid}`,
    )
    expect((await send(first, 1)).status).toBe(201)
  })

  it('never lets the lock of a killed process block a new start', async () => {
    const first = await start()
    expect((await send(first, 1)).status).toBe(201)
    await killed(first)
    const second = await start()
    expect((await read(second, '/maillog')).body).toHaveLength(1)
  })
})

describe('a send acknowledged before kill -9', () => {
  it('is in the mail log and the outbox after a restart', async () => {
    const first = await start()
    const answers = []
    for (let n = 0; n < 5; n++) answers.push(await send(first, n))
    answers.push(...(await Promise.all([5, 6, 7, 8, 9].map((n) => send(first, n)))))
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201))
    const ids = await Promise.all(answers.map(async (answer) => (await answer.json()).id))
    await killed(first)

    const second = await start()
    const mailLog = (await read(second, '/maillog')).body as { output: { id: string } }[]
    expect(mailLog.map((record) => record.output.id).sort()).toEqual([...ids].sort())
    expect(mailLog.slice(5).map((record) => record.output.id)).toEqual(ids.slice(0, 5).reverse())
    const outbox = (await read(second, '/outbox')).body as { id: string }[]
    expect(outbox.map((message) => message.id).sort()).toEqual([...ids].sort())
  })
})

describe('the log files of the NeDB release in DATA_DIR', () => {
  const line = (document: object) => `${JSON.stringify(document)}\n`
  const record = (n: number) => ({
    _id: `0190a0b0c0d0000${n}deadbeef`,
    email: `reader${n}@example.com`,
    name: `Reader ${n}`,
    output: { id: `<${n}@mg.example.com>`, message: 'Queued. Thank you.' },
  })
  const maillog = line(record(1)) + line(record(2)) + line({ $$deleted: true, _id: record(1)._id })

  it('are imported at the first start, said so, and kept as they were', async () => {
    const file = join(dataDir, 'maillog.db')
    await writeFile(file, maillog)
    // Its records are from 2024: a retention of 100 years keeps them. They have no owner, so
    // only an admin key lists them.
    const admin = { ADMIN_API_KEYS: apiKey }
    const first = await start({ MAILLOG_RETENTION_DAYS: '36500', ...admin })
    expect(first.output).toContain(`imported 1 record from ${file}; that file is kept as it was`)
    expect((await read(first, '/maillog')).body).toEqual([
      { ...record(2), status: 'accepted', events: [] },
    ])
    expect((await send(first, 3)).status).toBe(201)
    await killed(first)

    const second = await start({ MAILLOG_RETENTION_DAYS: '36500', ...admin })
    expect(second.output).not.toContain('imported')
    expect((await read(second, '/maillog')).body).toMatchObject([{ name: 'Reader 3' }, record(2)])
    await killed(second)

    // With the default retention of 90 days, the record from 2024 goes; today's stays.
    const third = await start(admin)
    expect((await read(third, '/maillog')).body).toMatchObject([{ name: 'Reader 3' }])
    expect(await readFile(file, 'utf8')).toBe(maillog)
  })

  it('refuse the start when a line in the middle is damaged, naming the file and the line', async () => {
    const file = join(dataDir, 'outbox.db')
    await writeFile(file, `${line({ _id: 'a' })}{"_id":"b",\n${line({ _id: 'c' })}`)
    const { code, output } = await failedStart({ DATA_DIR: dataDir, API_KEYS: apiKey })
    expect(code).toBe(1)
    expect(output).toContain(`mail-service cannot start: ${file} is damaged (line 2 is not`)
  })
})

const probe = await SmallDisk.mount('64k')
await probe?.unmount()
if (!probe) console.log('Full-disk tests skipped: they mount a small tmpfs, which needs root')

describe.skipIf(!probe)('a full disk (a 256 KiB tmpfs as DATA_DIR)', () => {
  let disk: SmallDisk
  beforeEach(async () => {
    await rm(dataDir, { recursive: true, force: true })
    disk = (await SmallDisk.mount('256k')) as SmallDisk
    dataDir = disk.dir
  })
  afterEach(() => disk.unmount())

  /** Sends until a send is refused; how many went out, and the refusal. */
  async function fill(service: BuiltEntry) {
    for (let n = 0; n < 500; n++) {
      const response = await send(service, n)
      if (response.status !== 201) return { sent: n, refused: response }
    }
    throw new Error('the disk never filled up')
  }

  it('refuses a send the outbox has no room for with 507, and keeps serving', async () => {
    // Messages of nearly a page each fill the disk in a few dozen sends.
    const service = await start({ MAIL_TEXT: `Hello {name}, ${'x'.repeat(3_000)}` })
    const { sent, refused } = await fill(service)
    expect(sent).toBeGreaterThan(0)
    expect(refused.status).toBe(507)
    // The first write to find the disk full refuses it: the send count's or the outbox's.
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/^no space left/) })
    expect((await read(service, '/outbox?limit=1000')).body).toHaveLength(sent)
    expect(await read(service, '/healthz')).toEqual({
      status: 503,
      body: { error: 'a store has no space left' },
    })
    // Health says no exactly while a send like the refused one still is refused.
    expect((await send(service, sent)).status).toBe(507)
    expect((await read(service, '/healthz')).status).toBe(503)

    // Space comes back: health says so with no restart, and sends go out again.
    disk.resize('2m')
    expect(await read(service, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } })
    expect((await send(service, sent)).status).toBe(201)
  })

  it('answers /healthz 503 after a restart on a disk still full, before any write fails', async () => {
    // Large messages first, then the default's small ones, until not even a small one fits.
    const large = await start({ MAIL_TEXT: `Hello {name}, ${'x'.repeat(3_000)}` })
    await fill(large)
    large.kill('SIGTERM')
    await large.exited
    const small = await start()
    await fill(small)
    small.kill('SIGTERM')
    await small.exited
    const restarted = await start()
    expect(await read(restarted, '/healthz')).toEqual({
      status: 503,
      body: { error: 'a store has no space left' },
    })
    disk.resize('2m')
    expect(await read(restarted, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } })
    expect((await send(restarted, 1_000)).status).toBe(201)
  })
})
