import { redactText } from '@movies-and-mail/http-kit'
import { batchedLines, listen, stopOnSignals } from '@movies-and-mail/http-kit/node'
import { createApp } from '../app.js'
import { parseEnv, secretValues } from '../env.js'
import { openItemStore } from '../store/open-item-store.js'
import { loadWebAssets } from './load-web-assets.js'

// Request lines leave in one write per turn of the event loop, not one system call each.
const output = batchedLines((text) => process.stdout.write(text))
process.on('exit', output.flush)
const log = (line: string) => output.write(`${line}\n`)

/** While the store opens, which database a start failure is about. */
let opening = ''

async function main(): Promise<void> {
  const settings = parseEnv(process.env)
  if (settings.CONNECTION_URL) opening = ` (database at ${settings.CONNECTION_URL})`
  const { store, description, notices } = await withDeadline(
    openItemStore(settings),
    settings.CONNECT_TIMEOUT_MS,
  )
  opening = ''
  for (const notice of notices) log(`items-service: ${notice}`)
  const app = createApp({
    store,
    apiKey: settings.ITEMS_APIKEY,
    corsOrigins: settings.CORS_ORIGINS,
    log: output.write,
    mailServiceUrl: settings.MAIL_SERVICE_URL,
    // The build puts the bundled web app beside this file.
    webAssets: await loadWebAssets(new URL('./web/', import.meta.url)),
  })
  const { server, address, port } = await listen(app.fetch, {
    port: settings.PORT,
    host: settings.HOST,
  })
  log(`items-service listening on http://${address}:${port} (${description})`)
  stopOnSignals(server, {
    timeoutMs: settings.SHUTDOWN_TIMEOUT_MS,
    close: () => store.close(),
    log,
    fail,
  })
}

/** Rejects when `promise` has not settled within `ms`, so start-up fails in bounded time. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no database answer within ${ms} ms`)), ms)
    promise.then(resolve, reject).finally(() => clearTimeout(timer))
  })
}

/** Prints why the process stops, with no secret of the environment in it, and exits 1. */
function fail(what: string, error: unknown, context = ''): never {
  const message = error instanceof Error ? error.message : String(error)
  const line = `items-service ${what}: ${message}${context}`
  process.stderr.write(`${redactText(line, secretValues(process.env))}\n`)
  process.exit(1)
}

main().catch((error: unknown) => fail('failed to start', error, opening))
