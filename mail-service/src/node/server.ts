import { redactText, withDeadline } from '@movies-and-mail/http-kit'
import {
  batchedLines,
  listen,
  openFilesLimit,
  reachableAt,
  stopOnSignals,
  withinOpenFiles,
} from '@movies-and-mail/http-kit/node'
import { createApp } from '../app.js'
import { parseEnv, secretValues } from '../env.js'
import { describeSetup, openAdapters } from '../open-adapters.js'
import { Background } from '../sendmail/background.js'
import { type KeptApiKey, keptApiKey } from './api-key-file.js'
import { openNodeStores, serversOf } from './node-stores.js'
import { keepStoresTidy } from './upkeep.js'

// Request lines leave in one write per turn of the event loop, not one system call each.
const output = batchedLines((text) => process.stdout.write(text))
process.on('exit', output.flush)
const log = (line: string) => output.write(`${line}\n`)

/** While the stores open, which database a start failure is about. */
let opening = ''

async function main(): Promise<void> {
  const settings = parseEnv(process.env)
  const { mongo } = settings
  if (mongo) opening = ` (MongoDB at ${serversOf(mongo.url)}, database ${mongo.dbName})`
  const state = await openNodeStores(settings)
  const adapters = await openAdapters(settings, state.stores)
  opening = ''
  // Mail never runs open: without API_KEYS, the key made at the first start is kept in DATA_DIR.
  // It is then the one key, and the operator's: it reads every record, as an admin key does.
  const kept = settings.apiKeys.length > 0 ? undefined : await keptApiKey(settings.dataDir)
  const apiKeys = kept ? [kept.key] : settings.apiKeys
  const background = new Background()
  const app = createApp({
    ...adapters,
    apiKeys,
    adminApiKeys: kept ? [kept.key] : settings.adminApiKeys,
    corsOrigins: settings.corsOrigins,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    template: settings.mail,
    rateLimits: settings.rateLimits,
    timeoutMs: settings.mail.timeoutMs,
    background,
    log: output.write,
  })
  const stopUpkeep = await keepStoresTidy({
    ...adapters,
    retentionDays: settings.mailLogRetentionDays,
    log,
  })
  const { server, address, port } = await listen(app.fetch, {
    port: settings.port,
    host: settings.host,
    // Connections stay within what the process may open; a slow body gets the app's own 408.
    maxConnections: withinOpenFiles({ connections: Infinity, streams: 0 }, openFilesLimit())
      .connections,
    requestTimeoutMs: settings.bodyTimeoutMs * 2,
  })
  const { url, everywhere, local } = reachableAt(address, port)
  const banner = [
    `mail-service listening on ${url}${everywhere ? ' on every interface' : ''}`,
    `docs: ${local}/docs`,
    // A URL in the settings may carry a secret in its query.
    ...describeSetup(settings, state.where).map((line) =>
      redactText(line, secretValues(process.env)),
    ),
    ...(kept ? keyBanner(kept) : []),
  ]
  // One write, so whoever reads the output sees the banner whole (the key's frame included).
  log(banner.join('\n'))
  stopOnSignals(server, {
    timeoutMs: settings.shutdownTimeoutMs,
    close: async () => {
      stopUpkeep()
      await finishBackground(background, settings.shutdownTimeoutMs)
      await state.close()
    },
    log,
    fail,
  })
}

/** Waits for sends that outlived their request, for at most `ms`; says what it gave up on. */
async function finishBackground(background: Background, ms: number): Promise<void> {
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

/** Says why the process stops, with no secret of the environment in it, and exits 1. */
function fail(what: string, reason: unknown, context = ''): never {
  const message = reason instanceof Error ? reason.message : String(reason)
  output.flush()
  const line = `mail-service ${what}: ${message}${context}`
  console.error(redactText(line, secretValues(process.env)))
  process.exit(1)
}

main().catch((reason: unknown) => fail('cannot start', reason, opening))
