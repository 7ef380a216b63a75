import { redactText } from '@movies-and-mail/http-kit'
import {
  batchedLines,
  Compression,
  listen,
  openFilesLimit,
  reachableAt,
  stopOnSignals,
  withinOpenFiles,
} from '@movies-and-mail/http-kit/node'
import { parseEnv, secretValues } from '../env.js'
import type { Compress } from '../items/items.app.js'
import { loadWebAssets } from './load-web-assets.js'
import { openItemStore } from './open-item-store.js'

// Request lines leave in one write per turn of the event loop, not one system call each.
const output = batchedLines((text) => process.stdout.write(text))
process.on('exit', output.flush)
const log = (line: string) => output.write(`${line}\n`)

/** While the store opens, which database a start failure is about. */
let opening = ''

async function main(): Promise<void> {
  const settings = parseEnv(process.env)
  if (settings.connectionUrl) opening = ` (database at ${settings.connectionUrl})`
  const { store, description, notices } = await openItemStore(settings)
  opening = ''
  for (const notice of notices) log(`items-service: ${notice}`)
  const webAssets = await loadWebAssets(new URL('./web/', import.meta.url))
  // The change feed's streams and the connections stay within what the process may open.
  const fileLimit = openFilesLimit()
  const withinFiles = withinOpenFiles(
    { connections: Number.POSITIVE_INFINITY, streams: settings.events.maxStreams },
    fileLimit,
  )
  if (withinFiles.streams < settings.events.maxStreams) {
    log(
      `items-service: at most ${withinFiles.streams} event streams (EVENTS_MAX_STREAMS is ${settings.events.maxStreams}): the process may open ${fileLimit} files (ulimit -n), and keeps room for requests and the store`,
    )
  }
  // The list is compressed once per change, whatever asks for it.
  const compression = new Compression()
  const compress: Compress = (list, acceptEncoding) => compression.of(list, acceptEncoding)
  // The app (Hono, the routes, the docs, the page) loads while the server starts listening; a
  // load failure fails the start.
  const app = import('../app.js').then(({ createApp }) =>
    createApp({
      store,
      apiKey: settings.apiKey,
      corsOrigins: settings.corsOrigins,
      log: output.write,
      mailServiceUrl: settings.mailServiceUrl,
      events: { ...settings.events, maxStreams: withinFiles.streams },
      bodyTimeoutMs: settings.bodyTimeoutMs,
      bounds: settings.bounds,
      // The build puts the bundled web app beside this file.
      webAssets,
      compress,
    }),
  )
  const [{ server, address, port }] = await Promise.all([
    listen(
      app.then(({ fetch }) => fetch),
      {
        port: settings.port,
        host: settings.host,
        maxConnections: withinFiles.connections,
        // Behind the app's own 408 for a slow body: what no route reads.
        requestTimeoutMs: settings.bodyTimeoutMs * 2,
      },
    ),
    app.catch((error: unknown) => fail('failed to load its routes', error)),
  ])
  const { url, everywhere, local } = reachableAt(address, port)
  log(
    [
      `items-service listening on ${url}${everywhere ? ' on every interface' : ''} (${description})`,
      `page: ${local}/`,
      `docs: ${local}/docs`,
    ].join('\n'),
  )
  stopOnSignals(server, {
    timeoutMs: settings.shutdownTimeoutMs,
    close: () => store.close(),
    // Followers of the change feed reconnect, to another instance or to this one restarted.
    endStreams: () => store.changes?.end(),
    log,
    fail,
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
