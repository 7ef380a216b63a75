// The mail Worker's bundle under Miniflare, with Mailgun and a Deta Base host stood in for:
// what the Worker test files share.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, beforeEach, onTestFinished } from 'vitest'
import { ensureBuilt } from './run-server.js'
import { WorkerOutbound } from './worker-outbound.js'

export const scriptPath = fileURLToPath(new URL('../../dist/worker.js', import.meta.url))
/** The date the deployment uses (wrangler.toml), so the test runs what is deployed. */
export const compatibilityDate = /^compatibility_date = "([\d-]+)"/m.exec(
  readFileSync(new URL('../../wrangler.toml', import.meta.url), 'utf8'),
)?.[1]
export const mailgunKey = 'key-WORKER-SECRET-91c2'
export const mailgunBody =
  '{"id":"<20260101120000.abc123@mg.example.com>", "message":"Queued. Thank you."}'

/** Mailgun accepts at once, unless a test says otherwise. */
export const accepted = async () => new Response(mailgunBody, { status: 200 })
/** Stands in for Mailgun and for the Deta Base host, and records what the Worker sent them. */
export const outbound = new WorkerOutbound('api.eu.mailgun.net', 'base.example.com', accepted)

export function worker(bindings: Record<string, string>) {
  return new Miniflare({
    modules: true,
    scriptPath,
    compatibilityDate,
    bindings,
    outboundService: outbound.fetch,
  })
}

/** A Worker with settings of its own, disposed when the test ends. */
export function workerForThisTest(bindings: Record<string, string>): Miniflare {
  const instance = worker(bindings)
  onTestFinished(() => instance.dispose())
  return instance
}

/** Holds Mailgun's answer back until the returned function is called. */
export function holdMailgunAnswer(): () => void {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  outbound.mailgunAnswer = () => released.then(accepted)
  return release
}

export const bindings = {
  API_KEYS: 'worker-key',
  MAIL_APIKEY: mailgunKey,
  MAIL_DOMAIN: 'mg.example.com',
  MAIL_REGION: 'eu',
  MAIL_FROM: 'Movies <hello@mg.example.com>',
  MAIL_TEXT: 'Dear {name}, hello.',
  MAIL_TIMEOUT_MS: '500',
  DETA_PROJECT_KEY: 'w0rk_detasecret',
  DETA_BASE_HOST: 'base.example.com',
  CORS_ORIGINS: 'https://app.example',
}

export const sendTo = (instance: Miniflare, body: unknown, headers: Record<string, string> = {}) =>
  instance.dispatchFetch('http://worker.test/sendmail', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-apikey': 'worker-key', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

/** Sends `body` `times` times, one after the other; their statuses. */
export async function statusesOf(
  instance: Miniflare,
  body: unknown,
  times: number,
): Promise<number[]> {
  const statuses: number[] = []
  for (let sent = 0; sent < times; sent++) statuses.push((await sendTo(instance, body)).status)
  return statuses
}

export const ada = { email: 'ada@example.com', name: 'Ada' }

/**
 * For the test file: the Worker with `bindings`, built if need be, started before its tests and
 * disposed after them; the stand-ins are reset before each test.
 */
export function useSharedWorker(): {
  mf: () => Miniflare
  send: (body: unknown, headers?: Record<string, string>) => ReturnType<typeof sendTo>
} {
  let shared: Miniflare | undefined
  beforeAll(async () => {
    ensureBuilt()
    shared = worker(bindings)
    await shared.ready
  })
  afterAll(() => shared?.dispose())
  beforeEach(() => outbound.reset())
  const mf = () => shared as Miniflare
  return { mf, send: (body, headers = {}) => sendTo(mf(), body, headers) }
}
