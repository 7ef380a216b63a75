import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { Miniflare } from 'miniflare'
import { beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { ensureBuilt } from './support/run-server.js'
import {
  ada,
  bindings,
  compatibilityDate,
  mailgunBody,
  mailStateObjects,
  outbound,
  sendTo,
  statusesOf,
  warmedUp,
  worker,
  workerModules,
} from './support/worker-under-test.js'

// The Worker's state lives in its Durable Object, kept in a folder as `wrangler dev
// --persist-to` keeps it: a restart of the runtime on the same folder is a new isolate, which
// knows nothing but what the object holds. Miniflare cannot run two isolates of one Worker at
// once; the object being the one place of the state is what this shows instead.

const { DETA_PROJECT_KEY: _, DETA_BASE_HOST: __, ...withoutDeta } = bindings
const key = { 'idempotency-key': 'signup-4711' }
const bob = { email: 'bob@example.com', name: 'Bob' }

beforeAll(() => ensureBuilt())
beforeEach(() => outbound.reset())

/** A folder for the object's storage, removed when the test ends. */
async function stateFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'mail-worker-state-'))
  onTestFinished(() => rm(folder, { recursive: true, force: true }))
  return folder
}

/** The Worker on `persist`, ready; the caller disposes it. */
function started(settings: Record<string, string>, persist: string): Promise<Miniflare> {
  return warmedUp(worker(settings, { persist }))
}

const listOf = async (instance: Miniflare, path: string) => {
  const response = await instance.dispatchFetch(`http://worker.test${path}`, {
    headers: { 'x-apikey': 'worker-mail-api-key' },
  })
  expect(response.status).toBe(200)
  return (await response.json()) as Record<string, unknown>[]
}

describe('the Worker without a Deta Base: every kind of state in the object', () => {
  it('replays a retry, refuses a fourth send, lists the log, and still does after a restart', async () => {
    const persist = await stateFolder()
    const first = await started(withoutDeta, persist)
    const sent = await sendTo(first, ada, key)
    expect(sent.status).toBe(201)
    const retry = await sendTo(first, ada, key)
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    expect(await retry.text()).toBe(mailgunBody)
    expect(await statusesOf(first, bob, 3)).toEqual([201, 201, 201])
    const refused = await sendTo(first, bob)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(1_100)
    expect(outbound.toMailgun()).toHaveLength(4)
    await first.dispose()

    const restarted = await started(withoutDeta, persist)
    try {
      const again = await sendTo(restarted, ada, key)
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
      expect(await again.text()).toBe(mailgunBody)
      const stillRefused = await sendTo(restarted, bob)
      expect(stillRefused.status).toBe(429)
      expect(Number(stillRefused.headers.get('retry-after'))).toBeGreaterThan(1_100)
      // One mail to Mailgun for the key, three for Bob: nothing more after the restart.
      expect(outbound.toMailgun()).toHaveLength(4)
      const log = await listOf(restarted, '/maillog')
      expect(log.map(({ email }) => email)).toEqual([bob.email, bob.email, bob.email, ada.email])
      // Nothing reached a Base: the Worker has none.
      expect(outbound.requests.every(({ url }) => url.includes('mailgun'))).toBe(true)
    } finally {
      await restarted.dispose()
    }
  })

  it('keeps the outbox in the object too, across a restart', async () => {
    const persist = await stateFolder()
    const outboxMode = { API_KEYS: 'worker-mail-api-key', MAIL_TRANSPORT: 'outbox' }
    const first = await started(outboxMode, persist)
    expect((await sendTo(first, ada)).status).toBe(201)
    await first.dispose()
    const restarted = await started(outboxMode, persist)
    try {
      expect(await listOf(restarted, '/outbox')).toEqual([
        expect.objectContaining({ to: ada.email, _id: expect.stringMatching(/^[0-9a-f]{24}$/) }),
      ])
      expect(await listOf(restarted, '/maillog')).toHaveLength(1)
      expect(outbound.requests).toEqual([])
    } finally {
      await restarted.dispose()
    }
  })

  it('says at start where each kind of state lives', async () => {
    let output = ''
    const instance = worker(withoutDeta, { onOutput: (text) => (output += text) })
    onTestFinished(() => instance.dispose())
    await instance.dispatchFetch('http://worker.test/healthz')
    expect(output).toContain(
      'state: mail log, outbox, idempotency keys and send counts in the Durable Object MailStateObject (SQLite storage)',
    )
  })
})

describe('the Worker with a Deta Base: the log in the Base, keys and counts in the object', () => {
  it('sends the log to the Base and nothing of the keys or counts, and keeps them across a restart', async () => {
    const persist = await stateFolder()
    let output = ''
    const first = await warmedUp(
      worker(bindings, { persist, onOutput: (text) => (output += text) }),
    )
    expect((await sendTo(first, ada, key)).status).toBe(201)
    expect(await statusesOf(first, ada, 3)).toEqual([201, 201, 429])
    await first.dispose()
    expect(output).toContain(
      'state: mail log and outbox in the Deta Base at base.example.com (bases maillog, outbox); ' +
        'idempotency keys and send counts in the Durable Object MailStateObject (SQLite storage)',
    )

    const restarted = await started(bindings, persist)
    try {
      const retry = await sendTo(restarted, ada, key)
      expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
      expect((await sendTo(restarted, ada)).status).toBe(429)
    } finally {
      await restarted.dispose()
    }
    expect(outbound.toMailgun()).toHaveLength(3)
    const inserts = outbound.deta.requestsTo('maillog').filter(({ method }) => method === 'POST')
    expect(inserts).toHaveLength(3)
    expect(outbound.deta.items('maillog')).toHaveLength(3)
    expect(outbound.deta.requestsTo('idempotency')).toEqual([])
    expect(outbound.deta.requestsTo('sends')).toEqual([])
  })
})

describe('the Worker without its object binding', () => {
  it('serves nothing, and its log names MAIL_STATE', async () => {
    let output = ''
    const unbound = new Miniflare({
      modules: workerModules(),
      compatibilityDate,
      bindings: withoutDeta,
      handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
        for (const stream of [stdout, stderr]) stream.on('data', (chunk) => (output += chunk))
      },
    })
    onTestFinished(() => unbound.dispose())
    const response = await sendTo(unbound, ada)
    expect(response.status).toBe(503)
    // What workerd prints reaches this process a little after the response, under load.
    await vi.waitFor(() => expect(output).toContain('MAIL_STATE is missing'))
    expect(outbound.requests).toEqual([])
  })
})

describe('wrangler.toml', () => {
  it('binds the object the tests run, with SQLite storage', async () => {
    const toml = await readFile(new URL('../wrangler.toml', import.meta.url), 'utf8')
    const { className } = mailStateObjects.MAIL_STATE
    expect(toml).toMatch(
      new RegExp(
        `\\[\\[durable_objects\\.bindings\\]\\]\\s+name = "MAIL_STATE"\\s+class_name = "${className}"`,
      ),
    )
    expect(toml).toMatch(new RegExp(`new_sqlite_classes = \\["${className}"\\]`))
  })
})
