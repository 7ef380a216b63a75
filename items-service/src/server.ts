import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AppOptions } from './app.js'
import { parseEnv } from './env.js'
import { batchedLines } from './http/batched-lines.js'
import { loadedOnFirstUse } from './http/loaded-on-first-use.js'
import { withDirectReads } from './items/items.direct-reads.js'
import { openItemStore } from './store/open-item-store.js'
import { loadWebAssets } from './web/load-web-assets.js'

// Request lines leave in one write per turn of the event loop, not one system call each.
const output = batchedLines((text) => process.stdout.write(text))
process.on('exit', output.flush)
const log = (line: string) => output.write(`${line}\n`)

async function main(): Promise<void> {
  const settings = parseEnv(process.env)
  const { store, description, memoryReads, notices } = await withDeadline(
    openItemStore(settings),
    settings.CONNECT_TIMEOUT_MS,
  )
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
        loadedOnFirstUse(loadApp, (error) => {
          process.stderr.write(`items-service failed to load its routes: ${error}\n`)
          process.exit(1)
        }),
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
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    log(`${signal}: finishing requests in flight, then closing`)
    // Idle keep-alive connections would hold close() open, and so would those that go idle
    // after finishing a request in flight: close them as they become idle.
    const closeIdle = () => server.closeIdleConnections()
    const sweep = setInterval(closeIdle, 100)
    server.close(async () => {
      clearInterval(sweep)
      await store.close()
      process.exit(0)
    })
    closeIdle()
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

/** Rejects when `promise` has not settled within `ms`, so start-up fails in bounded time. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no database answer within ${ms} ms`)), ms)
    promise.then(resolve, reject).finally(() => clearTimeout(timer))
  })
}

main().catch((error: unknown) => {
  process.stderr.write(
    `items-service failed to start: ${error instanceof Error ? error.message : error}\n`,
  )
  process.exit(1)
})
