import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { redactText } from '@movies-and-mail/http-kit'
import { closeServer } from '@movies-and-mail/http-kit/node'
import type { AppOptions } from './app.js'
import { parseEnv, secretValues } from './env.js'
import { batchedLines } from './http/batched-lines.js'
import { loadedOnFirstUse } from './http/loaded-on-first-use.js'
import { withDirectReads } from './items/items.direct-reads.js'
import { openItemStore } from './store/open-item-store.js'
import { loadWebAssets } from './web/load-web-assets.js'

// Request lines leave in one write per turn of the event loop, not one system call each.
const output = batchedLines((text) => process.stdout.write(text))
process.on('exit', output.flush)
const log = (line: string) => output.write(`${line}\n`)

/** While the store opens, which database a start failure is about. */
let opening = ''

async function main(): Promise<void> {
  const settings = parseEnv(process.env)
  if (settings.CONNECTION_URL) opening = ` (database at ${settings.CONNECTION_URL})`
  const { store, description, memoryReads, notices } = await withDeadline(
    openItemStore(settings),
    settings.CONNECT_TIMEOUT_MS,
  )
  opening = ''
  for (const notice of notices) log(`items-service: ${notice}`)
  const appOptions: AppOptions = {
    store,
    apiKey: settings.ITEMS_APIKEY,
    corsOrigins: settings.CORS_ORIGINS,
    log: output.write,
    mailServiceUrl: settings.MAIL_SERVICE_URL,
    // The build puts the bundled web app beside this file.
    webAssets: await loadWebAssets(new URL('./web/', import.meta.url)),
  }
  const loadApp = async () =>
    (await import('./app-listener.js')).createAppListener(appOptions, settings.HOST)
  // With reads answered from memory, the app loads on the first request that needs it: it is
  // about half of what start-up would compile, and the polled reads need none of it.
  const listener = memoryReads
    ? withDirectReads(
        loadedOnFirstUse(loadApp, (error) => fail('failed to load its routes', error)),
        { reads: memoryReads, corsOrigins: settings.CORS_ORIGINS, log: output.write },
      )
    : await loadApp()
  const server = await new Promise<Server>((resolve, reject) => {
    const server = createServer(listener)
    // A taken port is a start failure like any other, not an unhandled 'error' event.
    server.once('error', reject)
    server.listen(settings.PORT, settings.HOST, () => {
      const { address, port } = server.address() as AddressInfo
      log(`items-service listening on http://${address}:${port} (${description})`)
      resolve(server)
    })
  })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    const timeoutMs = settings.SHUTDOWN_TIMEOUT_MS
    log(`${signal}: finishing requests in flight for at most ${timeoutMs} ms, then closing`)
    const { cut } = await closeServer(server, timeoutMs)
    // Cutting a request that outlived the deadline is still an orderly stop: what was
    // acknowledged is stored, and the store closes as always; the line says what was cut.
    if (cut > 0) log(`closed ${cut} connection(s) still in flight after ${timeoutMs} ms`)
    await store.close()
    process.exit(0)
  }
  const stopOn = (signal: string) => () =>
    stop(signal).catch((error: unknown) => fail('failed to close its store', error))
  process.on('SIGTERM', stopOn('SIGTERM'))
  process.on('SIGINT', stopOn('SIGINT'))
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
