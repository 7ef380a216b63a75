import { createApp, type MailApp } from '../app.js'
import { parseEnv } from '../env.js'
import { MemoryIdempotencyStore } from '../idempotency/memory-idempotency-store.js'
import { MemoryMailLog } from '../mail-log/memory-mail-log.js'
import { describeSetup, detaStores, openAdapters } from '../open-adapters.js'
import { MemorySendCounter } from '../rate-limits/memory-send-counter.js'

type Bindings = Record<string, unknown>

let app: Promise<MailApp> | undefined

/** Builds the app once per isolate from the Worker's bindings (vars and secrets). */
async function build(bindings: Bindings): Promise<MailApp> {
  const raw = Object.fromEntries(
    Object.entries(bindings).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  )
  const settings = parseEnv(raw)
  // Without a Deta Base, what the Worker keeps lives as long as its isolate.
  const adapters = await openAdapters(
    settings,
    detaStores(settings) ?? {
      open: async () => new MemoryMailLog(),
      idempotency: async () => new MemoryIdempotencyStore(),
      sendCounter: async () => new MemorySendCounter(),
    },
  )
  const state = settings.deta
    ? `Deta Base at ${settings.deta.host} (bases maillog, outbox, idempotency, sends)`
    : 'in memory only (set DETA_PROJECT_KEY to keep them)'
  for (const line of describeSetup(settings, state)) {
    console.log(line)
  }
  // With no key the guard lets everything through (DESIGN.md), and the mail service must never
  // be open: without API_KEYS the Worker serves nothing.
  if (settings.apiKeys.length === 0) throw new Error('API_KEYS is not set; it is required')
  return createApp({
    ...adapters,
    apiKeys: settings.apiKeys,
    rateLimits: settings.rateLimits,
    timeoutMs: settings.mail.timeoutMs,
    corsOrigins: settings.corsOrigins,
    template: settings.mail,
  })
}

/** The module Worker: same app as the Node entry, settings from the bindings. */
export default {
  async fetch(request: Request, bindings: Bindings, context: unknown): Promise<Response> {
    app ??= build(bindings)
    try {
      return (await app).fetch(request, bindings, context as never)
    } catch (error) {
      app = undefined
      console.error(`mail-service cannot start: ${error instanceof Error ? error.message : error}`)
      return Response.json(
        { error: 'the service is misconfigured; its log says which setting' },
        { status: 503 },
      )
    }
  },
}
