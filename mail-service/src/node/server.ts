import { observers } from '@movies-and-mail/http-kit/app'
import { runNodeService } from '@movies-and-mail/http-kit/node'
import { redactText } from '@movies-and-mail/http-kit/redact'
import { withDeadline } from '@movies-and-mail/store-kit'
import { createApp } from '../app.js'
import { parseEnv, secretValues } from '../env.js'
import { describeSetup, openAdapters } from '../open-adapters.js'
import { Background } from '../sendmail/background.js'
import { type KeptApiKey, keptApiKey } from './api-key-file.js'
import { openNodeStores, serversOf } from './node-stores.js'
import { keepStoresTidy } from './upkeep.js'

runNodeService('mail-service', secretValues(process.env), async ({ log, appLog, opening }) => {
  const settings = parseEnv(process.env)
  const logs = await appLog(settings.logFormat)
  // prom-client loads only when metrics are asked for.
  const metrics = settings.metrics && (await import('./mail-metrics.js')).mailMetrics()
  const { mongo } = settings
  if (mongo) opening(` (MongoDB at ${serversOf(mongo.url)}, database ${mongo.dbName})`)
  const state = await openNodeStores(settings)
  const adapters = await openAdapters(settings, state.stores)
  // Mail never runs open: without API_KEYS, the key made at the first start is kept in DATA_DIR.
  // It is then the one key, and the operator's: it reads every record, as an admin key does.
  const kept = settings.apiKeys.length > 0 ? undefined : await keptApiKey(settings.dataDir)
  const apiKeys = kept ? [kept.key] : settings.apiKeys
  const background = new Background()
  const app = createApp({
    ...adapters,
    ...(metrics && {
      mailer: metrics.timed(adapters.mailer),
      onSend: metrics.onSend,
      onDeliveryEvent: metrics.onDeliveryEvent,
    }),
    apiKeys,
    adminApiKeys: kept ? [kept.key] : settings.adminApiKeys,
    corsOrigins: settings.corsOrigins,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    template: settings.mail,
    webhookSigningKey: settings.webhookSigningKey,
    rateLimits: settings.rateLimits,
    timeoutMs: settings.mail.timeoutMs,
    giveUpMs: settings.mail.giveUpMs,
    background,
    log: logs.log,
    onResponse: observers(logs.onResponse, metrics?.onResponse),
    onError: logs.onError,
  })
  const stopUpkeep = await keepStoresTidy({
    ...adapters,
    retentionDays: settings.mailLogRetentionDays,
    giveUpMs: settings.mail.giveUpMs,
    log,
  })
  return {
    fetch: app.fetch,
    port: settings.port,
    host: settings.host,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    shutdownTimeoutMs: settings.shutdownTimeoutMs,
    banner: ({ local }) => [
      `docs: ${local}/docs`,
      // A URL in the settings may carry a secret in its query.
      ...describeSetup(settings, state.where).map((line) =>
        redactText(line, secretValues(process.env)),
      ),
      ...(kept ? keyBanner(kept) : []),
    ],
    metrics: metrics && settings.metrics && { registry: metrics.registry, at: settings.metrics },
    close: async () => {
      stopUpkeep()
      await finishBackground(background, settings.shutdownTimeoutMs, log)
      await state.close()
    },
  }
})

/** Waits for sends that outlived their request, for at most `ms`; says what it gave up on. */
async function finishBackground(
  background: Background,
  ms: number,
  log: (line: string) => void,
): Promise<void> {
  if (background.size === 0) return
  log(`waiting up to ${ms} ms for ${background.size} send(s) the provider has not answered`)
  await withDeadline(ms, () => background.settled(), { what: 'the sends in the background' }).catch(
    () => log(`gave up on ${background.size} send(s): their outcome is not recorded`),
  )
}

/** The framed lines that give the kept key, apart from the lines around them. */
function keyBanner({ key, path, made }: KeptApiKey): string[] {
  const rule = '='.repeat(72)
  return [
    rule,
    `API_KEYS is not set: requests need the key ${made ? 'made now and kept' : 'kept'} in ${path}`,
    `  x-apikey: ${key}`,
    'Set API_KEYS (comma-separated) to use keys of your own instead; then nothing is written.',
    rule,
  ]
}
