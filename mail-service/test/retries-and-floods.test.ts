import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BuiltEntry, killBuiltEntries, MailgunStandIn } from '@movies-and-mail/test-kit'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ensureBuilt, startServer } from './support/run-server.js'

const queued = '{"id":"<20260101120000.1@mg.example.com>","message":"Queued. Thank you."}'
const key = 'flood-test-api-key'
let mailgun: MailgunStandIn
let dataDir: string

/** Deliveries the stand-in received, per recipient address. */
function deliveries(): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const request of mailgun.requests) {
    const to = request.fields.find(([name]) => name === 'to')?.[1] ?? ''
    counts[to] = (counts[to] ?? 0) + 1
  }
  return counts
}

function start(): Promise<BuiltEntry> {
  return startServer({
    DATA_DIR: dataDir,
    API_KEYS: key,
    MAIL_APIKEY: 'key-test',
    MAIL_DOMAIN: 'mg.example.com',
    MAIL_API_URL: mailgun.baseUrl,
    MAIL_TIMEOUT_MS: '300',
    MAIL_GIVE_UP_MS: '5000',
  })
}

function send(url: string, body: object, idempotencyKey?: string): Promise<Response> {
  return fetch(`${url}/sendmail`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-apikey': key,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  })
}

beforeAll(async () => {
  ensureBuilt()
  mailgun = await MailgunStandIn.start()
})
afterAll(() => mailgun.stop())
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mail-floods-'))
  mailgun.requests.length = 0
  mailgun.reply = { status: 200, body: queued }
})
afterEach(async () => {
  await killBuiltEntries()
  await rm(dataDir, { recursive: true, force: true })
})

describe('the built service, retried and flooded', () => {
  it('delivers a late send once: 504, then the retry gets the 201, also after a restart', async () => {
    const service = await start()
    mailgun.reply = { status: 200, body: queued, delayMs: 1_000 }
    const ada = { email: 'ada@example.com', name: 'Ada' }
    expect((await send(service.url, ada, 'late-1')).status).toBe(504)
    expect((await send(service.url, ada, 'late-1')).status).toBe(409)
    await new Promise((resolve) => setTimeout(resolve, 1_200))
    const retry = await send(service.url, ada, 'late-1')
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    expect(await retry.text()).toBe(queued)

    service.kill('SIGTERM')
    expect((await service.exited).code).toBe(0)
    const restarted = await start()
    const afterRestart = await send(restarted.url, ada, 'late-1')
    expect([afterRestart.status, afterRestart.headers.get('idempotent-replayed')]).toEqual([
      201,
      'true',
    ])
    const other = await send(restarted.url, { ...ada, name: 'Ada King' }, 'late-1')
    expect(other.status).toBe(422)
    expect(deliveries()).toEqual({ 'ada@example.com': 1 })
    const log = await fetch(`${restarted.url}/maillog`, { headers: { 'x-apikey': key } })
    expect(await log.json()).toHaveLength(1)
  })

  it('never sends a keyed mail twice across a kill -9 mid-send', async () => {
    const service = await start()
    mailgun.reply = { status: 200, body: queued, delayMs: 100 }
    const bodies = Array.from({ length: 20 }, (_, n) => ({ email: `r${n}@example.com`, name: 'R' }))
    const firsts = bodies.map((body, n) =>
      send(service.url, body, `crash-${n}`).then(
        (response) => response.status,
        () => 'cut',
      ),
    )
    await vi.waitFor(() => expect(mailgun.requests.length).toBeGreaterThanOrEqual(8), {
      timeout: 10_000,
      interval: 5,
    })
    service.kill('SIGKILL')
    await service.exited
    expect(await Promise.all(firsts)).toContain('cut')
    mailgun.reply = { status: 200, body: queued }

    const restarted = await start()
    const log = (await (
      await fetch(`${restarted.url}/maillog?limit=100`, { headers: { 'x-apikey': key } })
    ).json()) as { email: string }[]
    const logged = new Set(log.map((record) => record.email))
    for (const [n, body] of bodies.entries()) {
      const retry = await send(restarted.url, body, `crash-${n}`)
      if (logged.has(body.email)) {
        // Sent and logged before the kill: its answer, completed from the mail log.
        expect([body.email, retry.status, retry.headers.get('idempotent-replayed')]).toEqual([
          body.email,
          201,
          'true',
        ])
      } else {
        expect([body.email, [201, 409].includes(retry.status)]).toEqual([body.email, true])
      }
    }
    expect(Object.values(deliveries()).every((count) => count === 1)).toBe(true)
  })

  it('lets one of two simultaneous sends with one key through', async () => {
    const service = await start()
    mailgun.reply = { status: 200, body: queued, delayMs: 200 }
    const grace = { email: 'grace@example.com', name: 'Grace' }
    const statuses = (
      await Promise.all([send(service.url, grace, 'twin'), send(service.url, grace, 'twin')])
    ).map((response) => response.status)
    expect(statuses.sort()).toEqual([201, 409])
    expect(deliveries()).toEqual({ 'grace@example.com': 1 })
  })

  it('holds 3 an hour per address through ten quick sends and a restart', async () => {
    const service = await start()
    const flood = () =>
      Promise.all(
        Array.from({ length: 10 }, () => send(service.url, { email: 'x@example.com', name: 'X' })),
      )
    const first = await flood()
    expect(first.map((response) => response.status).sort()).toEqual([
      ...Array(3).fill(201),
      ...Array(7).fill(429),
    ])
    const refused = first.find((response) => response.status === 429) as Response
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(1_000)
    expect(await refused.json()).toMatchObject({ error: expect.stringMatching(/^too many sends/) })

    service.kill('SIGTERM')
    await service.exited
    const restarted = await start()
    const after = await send(restarted.url, { email: 'x@EXAMPLE.com', name: 'X' })
    expect(after.status).toBe(429)
    expect(deliveries()).toEqual({ 'x@example.com': 3 })
  })
})
