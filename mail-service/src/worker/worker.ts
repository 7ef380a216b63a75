import type { ExecutionContext } from '@cloudflare/workers-types'
import { redactText } from '@movies-and-mail/http-kit/redact'
import { misconfiguredMessage } from '@movies-and-mail/http-kit/settings'
import {
  analyticsDatasetOf,
  analyticsEngineRequestsOf,
  workerAppLog,
} from '@movies-and-mail/http-kit/workers-monitoring'
import {
  bodyDeadlineMs,
  responseOutsideApp,
  unreadBodyResponse,
  withBodyReadFirst,
} from '@movies-and-mail/http-kit/workers-runtime'
import { createApp, type MailApp } from '../app.js'
import { parseEnv, secretValues } from '../env.js'
import { describeSetup, openAdapters } from '../open-adapters.js'
import { maxSendMailBodyBytes } from '../sendmail/sendmail.routes.js'
import type { MailStateNamespace } from '../stores/durable/mail-state.js'
import { analyticsEngineSends } from './analytics-sends.js'
import { workerStores } from './worker-stores.js'

export { MailStateObject } from '../stores/durable/mail-state-object.js'

type Bindings = Record<string, unknown>

/** The bindings that are settings: strings (the Durable Object namespace is not one). */
function settingsOf(bindings: Bindings): Record<string, string> {
  return Object.fromEntries(
    Object.entries(bindings).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  )
}

let app: Promise<MailApp> | undefined
/** BODY_TIMEOUT_MS, read once per isolate (the bindings do not change). */
let deadlineMs: number | undefined

/**
 * Builds the app once per isolate from the Worker's bindings: its vars and secrets, and
 * `MAIL_STATE`, the namespace of the object that holds the service's state. The isolate keeps
 * the app alone: every key, count and record lives in the object (or a Deta Base), so any
 * isolate answers alike and a restart forgets nothing.
 */
async function build(bindings: Bindings): Promise<MailApp> {
  const raw = settingsOf(bindings)
  const settings = parseEnv(raw)
  const namespace = bindings.MAIL_STATE as MailStateNamespace | undefined
  if (!namespace) {
    throw new Error('the Durable Object binding MAIL_STATE is missing (see wrangler.toml)')
  }
  const { stores, where } = workerStores(settings, namespace)
  const adapters = await openAdapters(settings, stores)
  for (const line of describeSetup(settings, where)) {
    console.log(redactText(line, secretValues(raw)))
  }
  // With no key the guard lets everything through (DESIGN.md), and the mail service must never
  // be open: without API_KEYS the Worker serves nothing.
  if (settings.apiKeys.length === 0) throw new Error('API_KEYS is not set; it is required')
  // Each request an object on the console (Workers Logs indexes its fields); with an ANALYTICS
  // dataset bound, a data point per request, per send and per delivery event.
  const analytics = analyticsDatasetOf(bindings)
  return createApp({
    ...adapters,
    ...workerAppLog({ secrets: secretValues(raw), analytics }),
    ...(analytics && analyticsEngineSends(analytics)),
    apiKeys: settings.apiKeys,
    adminApiKeys: settings.adminApiKeys,
    rateLimits: settings.rateLimits,
    timeoutMs: settings.mail.timeoutMs,
    giveUpMs: settings.mail.giveUpMs,
    corsOrigins: settings.corsOrigins,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    template: settings.mail,
    webhookSigningKey: settings.webhookSigningKey,
  })
}

/**
 * The module Worker: same app as the Node entry, settings from the bindings. A body is read to
 * its end before the app answers (`withBodyReadFirst`), a refusal included: the connection then
 * carries the client's next request. A body not read within BODY_TIMEOUT_MS is answered 408.
 */
export default {
  async fetch(request: Request, bindings: Bindings, context: ExecutionContext): Promise<Response> {
    app ??= build(bindings)
    deadlineMs ??= bodyDeadlineMs(bindings.BODY_TIMEOUT_MS)
    const startedAt = performance.now()
    const whole = await withBodyReadFirst(request, maxSendMailBodyBytes, deadlineMs)
    // Answered before the app runs (or without one), logged and counted as its answers are.
    if (typeof whole === 'string') {
      const points = analyticsEngineRequestsOf(bindings)
      return unreadBodyResponse(request, whole, deadlineMs, startedAt, points)
    }
    try {
      return (await app).fetch(whole, bindings, context)
    } catch (error) {
      app = undefined
      const reason = error instanceof Error ? error.message : String(error)
      const secrets = secretValues(settingsOf(bindings))
      console.error(redactText(`mail-service cannot start: ${reason}`, secrets))
      const refusal = { error: misconfiguredMessage }
      return responseOutsideApp(
        request,
        503,
        refusal,
        startedAt,
        analyticsEngineRequestsOf(bindings),
      )
    }
  },
}
