import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  checkedAgainst,
  type MailgunReply,
  MailgunStandIn,
  mailgunSigningKey,
  OpenApiContract,
} from '@movies-and-mail/test-kit'
import { beforeEach, onTestFinished } from 'vitest'
import { type AppDeps, createApp } from '../../src/app.js'
import { MailgunMailer } from '../../src/mailer/mailgun-mailer.js'
import { OutboxMailer, type OutboxMessage } from '../../src/mailer/outbox-mailer.js'
import type { MailLog, MailLogEntry } from '../../src/ports/mail-log.js'
import { Background } from '../../src/sendmail/background.js'
import { EmbeddedStores } from '../../src/stores/embedded/embedded-stores.js'
import { MemoryIdempotencyStore } from './memory-stores/memory-idempotency-store.js'
import { MemoryMailLog } from './memory-stores/memory-mail-log.js'
import { MemorySendCounter } from './memory-stores/memory-send-counter.js'

export const apiKey = 'mail-test-key-7Hq2'
/** A Mailgun key distinctive enough to search every response and log line for. */
export const mailgunSecret = 'key-NEVER-SHOW-ME-5f3c9a1b'
export const template = {
  from: 'Movies <no-reply@mg.example.com>',
  subject: 'Hello from the movies app',
  text: 'Hello {name}, thank you for getting in touch.',
}

let contract: Promise<OpenApiContract> | undefined
/** The document the app serves, read once from an app of its own on in-memory adapters. */
const servedContract = () => {
  contract ??= OpenApiContract.of(
    createApp({
      mailer: new OutboxMailer(new MemoryMailLog<OutboxMessage>()),
      mailLog: new MemoryMailLog<MailLogEntry>(),
      idempotency: new MemoryIdempotencyStore(),
      counter: new MemorySendCounter(),
      ...{ apiKeys: [apiKey], corsOrigins: ['*'], template, log: () => {} },
    }),
  )
  return contract
}

export type TestApp = {
  app: ReturnType<typeof createApp>
  mailLog: MailLog<MailLogEntry>
  outbox?: OutboxMailer
  /** Sends that outlived their response (504); `cleanup` waits for them. */
  background: Background
  /** Every request line and error line the app wrote. */
  logs: string[]
  cleanup: () => Promise<void>
}

export type TestAppOptions = {
  mailgunUrl?: string
  /** How long the Mailgun transport waits before it gives up (MAIL_GIVE_UP_MS). */
  timeoutMs?: number
  /** How long a client waits before a 504 (MAIL_TIMEOUT_MS); the app's default when absent. */
  clientTimeoutMs?: number
  mailLog?: MailLog<MailLogEntry>
} & Omit<Partial<AppDeps>, 'timeoutMs'>

/**
 * The app on real in-process adapters: an embedded store in a temp dir (mail log, idempotency
 * keys, send counts), and Mailgun at `mailgunUrl` (a stand-in) or, without it, the outbox.
 * Every response of `app.request` is checked against the app's OpenAPI document: a drift between
 * the two fails the test.
 */
export async function testApp({
  mailgunUrl,
  timeoutMs = 2_000,
  clientTimeoutMs,
  mailLog: givenLog,
  background = new Background(),
  ...overrides
}: TestAppOptions = {}): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'mail-service-'))
  const logs: string[] = []
  const logLine = (line: string) => logs.push(line)
  const stores = new EmbeddedStores(dir, { say: logLine })
  const mailLog = givenLog ?? (await stores.open<MailLogEntry>('maillog'))
  const outbox = mailgunUrl
    ? undefined
    : new OutboxMailer(await stores.open<OutboxMessage>('outbox'))
  const mailer =
    outbox ??
    new MailgunMailer({
      baseUrl: mailgunUrl as string,
      domain: 'mg.example.com',
      apiKey: mailgunSecret,
      timeoutMs,
      logError: logLine,
    })
  const app = createApp({
    mailer,
    mailLog,
    outbox,
    apiKeys: [apiKey],
    corsOrigins: ['*'],
    template,
    log: logLine,
    logError: logLine,
    retry: { delayMs: 1 },
    idempotency: await stores.idempotency(),
    counter: await stores.sendCounter(),
    events: await stores.events(),
    webhookSigningKey: mailgunSigningKey,
    background,
    ...(clientTimeoutMs === undefined ? {} : { timeoutMs: clientTimeoutMs }),
    ...overrides,
  })
  return {
    app: checkedAgainst(servedContract, app),
    mailLog,
    outbox,
    background,
    logs,
    cleanup: async () => {
      await background.settled()
      await mailLog.close()
      await stores.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/**
 * For the test file: Mailgun's stand-in (`MailgunStandIn.forEachTest(reply)`), and before each
 * test a `testApp` that sends through it, cleaned up once the test and its `afterEach` are done.
 * `t` holds the running test's app.
 * @example const { mailgun, t } = appPerTest({ timeoutMs: 500 })
 */
export function appPerTest({
  reply,
  ...options
}: Omit<TestAppOptions, 'mailgunUrl'> & { reply?: () => MailgunReply } = {}): {
  mailgun: MailgunStandIn
  t: TestApp
} {
  const mailgun = MailgunStandIn.forEachTest(reply)
  const t = {} as TestApp
  beforeEach(async () => {
    const current = await testApp({ mailgunUrl: mailgun.baseUrl, ...options })
    Object.assign(t, current)
    onTestFinished(current.cleanup)
  })
  return { mailgun, t }
}

/** POST /webhooks/mailgun as Mailgun calls it: JSON, no `x-apikey`. */
export function postEvent(app: TestApp['app'], body: unknown): Promise<Response> {
  return Promise.resolve(
    app.request('/webhooks/mailgun', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  )
}

/** POST /sendmail with the right key and a JSON content type, unless `headers` say otherwise. */
export function sendMail(
  app: TestApp['app'],
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    app.request('/sendmail', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': apiKey, ...headers },
      body:
        typeof body === 'string'
          ? body
          : body instanceof Uint8Array
            ? new Uint8Array(body)
            : JSON.stringify(body),
    }),
  )
}
