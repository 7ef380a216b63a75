// The mail Worker's bundle under Miniflare, with its state object, and Mailgun and a Deta Base
// host stood in for: what the Worker test files share.
import { readFileSync } from 'node:fs'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { analyticsEngineStandIn, assetsOf } from '@movies-and-mail/test-kit'
import { Miniflare, type MiniflareOptions } from 'miniflare'
import { afterEach, beforeAll, beforeEach, onTestFinished } from 'vitest'
import { mailStateName } from '../../src/stores/durable/mail-state.js'
import { ensureBuilt } from './run-server.js'
import { WorkerOutbound } from './worker-outbound.js'

export const scriptPath = fileURLToPath(new URL('../../dist/worker.js', import.meta.url))
/**
 * The bundle as Miniflare's module list, read as it is now (the suite may have just built it):
 * given `scriptPath` instead, Miniflare parses the bundle in Node to find its imports before
 * every start, 150-350 ms of each. The bundle imports only `cloudflare:workers`.
 */
export const workerModules = () => [
  { type: 'ESModule' as const, path: scriptPath, contents: readFileSync(scriptPath) },
]
const wranglerPath = fileURLToPath(new URL('../../wrangler.toml', import.meta.url))
/** The date the deployment uses (wrangler.toml), so the test runs what is deployed. */
export const compatibilityDate = /^compatibility_date = "([\d-]+)"/m.exec(
  readFileSync(wranglerPath, 'utf8'),
)?.[1]
/** The static assets (the docs page and its files), in front of the Worker as deployed. */
export const assets = assetsOf(wranglerPath)
export const mailgunKey = 'key-WORKER-SECRET-91c2'
export const mailgunBody =
  '{"id":"<20260101120000.abc123@mg.example.com>", "message":"Queued. Thank you."}'

/** Mailgun accepts at once, unless a test says otherwise. */
export const accepted = async () => new Response(mailgunBody, { status: 200 })
/** Stands in for Mailgun and for the Deta Base host, and records what the Worker sent them. */
export const outbound = new WorkerOutbound('api.eu.mailgun.net', 'base.example.com', accepted)

/** The Durable Object of the service's state, as wrangler.toml binds it. */
export const mailStateObjects = {
  MAIL_STATE: { className: 'MailStateObject', useSQLite: true },
}

export type WorkerOptions = {
  /** A folder for the object's storage that outlives the instance (`wrangler dev --persist-to`). */
  persist?: string
  /** Receives what the Worker prints (its start-up lines, its request log). */
  onOutput?: (text: string) => void
  /** Where the Worker's fetches go instead of `outbound` (say, the network: a real connection). */
  outboundService?: MiniflareOptions['outboundService']
  /**
   * An Analytics Engine dataset bound as ANALYTICS: a stand-in that prints each data point among
   * what `onOutput` receives (`dataPointsIn`).
   */
  analytics?: boolean
}

/**
 * The Worker with `bindings`, its static assets in front; its object's storage lives in
 * `persist` when given, otherwise in a folder of the instance's own, gone with it.
 */
export function worker(
  bindings: Record<string, string>,
  { persist, onOutput, outboundService = outbound.fetch, analytics = false }: WorkerOptions = {},
) {
  const mail = {
    modules: workerModules(),
    compatibilityDate,
    bindings,
    ...(assets && { assets }),
    durableObjects: mailStateObjects,
    outboundService,
  }
  const standIn = { ANALYTICS: { scriptName: analyticsEngineStandIn.name } }
  return new Miniflare({
    ...(analytics
      ? { workers: [{ ...mail, wrappedBindings: standIn }, analyticsEngineStandIn] }
      : mail),
    ...(persist && { durableObjectsPersist: persist }),
    ...(onOutput && {
      handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
        for (const stream of [stdout, stderr]) {
          stream.on('data', (chunk: Buffer) => onOutput(String(chunk)))
        }
      },
    }),
  })
}

/**
 * Resolves once the Worker and its state object are up: the object's first call (its start,
 * its tables made) happens here, not in a test's request, where it would count against the
 * MAIL_TIMEOUT_MS of 500 ms that `bindings` set.
 */
export async function warmedUp(instance: Miniflare): Promise<Miniflare> {
  await instance.ready
  const objects = await instance.getDurableObjectNamespace('MAIL_STATE')
  const object = objects.get(objects.idFromName(mailStateName)) as unknown as StateObject
  await object.ping()
  return instance
}

type StateObject = { ping(): Promise<void> }

/** A Worker with settings of its own, disposed when the test ends. */
export function workerForThisTest(
  bindings: Record<string, string>,
  options: WorkerOptions = {},
): Miniflare {
  const instance = worker(bindings, options)
  onTestFinished(() => instance.dispose())
  return instance
}

/** Holds Mailgun's answer back until the returned function is called. */
export function holdMailgunResponse(): () => void {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  outbound.mailgunResponse = () => released.then(accepted)
  return release
}

export const bindings = {
  API_KEYS: 'worker-mail-api-key',
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
    headers: { 'content-type': 'application/json', 'x-apikey': 'worker-mail-api-key', ...headers },
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
 * For the test file: the Worker with `bindings`, built if need be, a new one for each test (its
 * object's state starts empty, as the stand-ins do) and disposed after it.
 */
export function useWorker(): {
  mf: () => Miniflare
  send: (body: unknown, headers?: Record<string, string>) => ReturnType<typeof sendTo>
} {
  let current: Miniflare | undefined
  beforeAll(() => ensureBuilt())
  beforeEach(async () => {
    outbound.reset()
    current = await warmedUp(worker(bindings))
  })
  afterEach(async () => {
    await current?.dispose()
    current = undefined
  })
  const mf = () => current as Miniflare
  return { mf, send: (body, headers = {}) => sendTo(mf(), body, headers) }
}
