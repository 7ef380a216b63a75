import { observers } from '@movies-and-mail/http-kit/app'
import {
  Compression,
  openFilesLimit,
  runNodeService,
  withinOpenFiles,
} from '@movies-and-mail/http-kit/node'
import { parseEnv, secretValues } from '../env.js'
import type { Compress } from '../items/items.app.js'
import { loadWebAssets } from './load-web-assets.js'
import { openItemStore } from './open-item-store.js'

runNodeService('items-service', secretValues(process.env), async ({ log, appLog, opening }) => {
  const settings = parseEnv(process.env)
  const logs = await appLog(settings.logFormat)
  if (settings.connectionUrl) opening(` (database at ${settings.connectionUrl})`)
  const opened = await openItemStore(settings)
  const { description, notices } = opened
  // prom-client loads only when metrics are asked for.
  const metrics =
    settings.metrics &&
    (await import('./items-metrics.js')).itemsMetrics({
      database: settings.connectionUrl ? 'mongodb' : 'lmdb',
      feed: () => opened.store.changes,
    })
  const store = metrics ? metrics.timed(opened.store) : opened.store
  for (const notice of notices) log(`items-service: ${notice}`)
  const webAssets = await loadWebAssets(new URL('./web/', import.meta.url))
  // The change feed's streams stay within what the process may open, beside the requests.
  const { maxStreams } = settings.events
  const { streams } = withinOpenFiles(
    { connections: Number.POSITIVE_INFINITY, streams: maxStreams },
    openFilesLimit(),
  )
  if (streams < maxStreams) {
    log(
      `items-service: at most ${streams} event streams (EVENTS_MAX_STREAMS is ${maxStreams}): the process may open ${openFilesLimit()} files (ulimit -n), and keeps room for requests and the store`,
    )
  }
  // The list is compressed once per change, whatever asks for it.
  const compression = new Compression()
  const compress: Compress = (list, acceptEncoding) => compression.of(list, acceptEncoding)
  // The app (Hono, the routes, the docs, the page) loads while the server starts listening.
  const app = Promise.all([import('../app.js'), import('../users/issuer-users.js')]).then(
    ([{ createApp }, { issuerUsers }]) =>
      createApp({
        store,
        apiKey: settings.apiKey,
        users: settings.users && issuerUsers(settings.users),
        corsOrigins: settings.corsOrigins,
        log: logs.log,
        onResponse: observers(logs.onResponse, metrics?.onResponse),
        onError: logs.onError,
        mailServiceUrl: settings.mailServiceUrl,
        events: { ...settings.events, maxStreams: streams },
        bodyTimeoutMs: settings.bodyTimeoutMs,
        bounds: settings.bounds,
        // The build puts the bundled web app beside this file.
        webAssets,
        compress,
      }),
  )
  return {
    fetch: app.then(({ fetch }) => fetch),
    port: settings.port,
    host: settings.host,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    shutdownTimeoutMs: settings.shutdownTimeoutMs,
    streams,
    about: description,
    banner: ({ local }) => [`page: ${local}/`, `docs: ${local}/docs`],
    close: () => store.close(),
    // Followers of the change feed reconnect, to another instance or to this one restarted.
    endStreams: () => store.changes?.end(),
    metrics: metrics && settings.metrics && { registry: metrics.registry, at: settings.metrics },
  }
})
