import type { DurableObjectState } from '@cloudflare/workers-types'
import { redactText } from '@movies-and-mail/http-kit/redact'
import { answerOutsideApp } from '@movies-and-mail/http-kit/request-log'
import { SettingsError } from '@movies-and-mail/http-kit/settings'
import { createApp } from '../app.js'
import { parseEnv, secretValues } from '../env.js'
import { DurableItemStore } from '../store/durable/durable-item-store.js'
import type { ItemStore } from '../store/item-store.js'

export type Fetch = (request: Request) => Response | Promise<Response>

/**
 * What one collection's Durable Object runs (`ItemsObject` loads it with its first request): the
 * whole items-service app, as on Node, over the store the settings name: MongoDB through the
 * official driver when `CONNECTION_URL` is set (the object holds the client, so its connection
 * and change stream live across requests; a Worker cannot use a socket another request opened),
 * otherwise the object's own SQLite storage. The change feed's streams are served from here, the
 * one place that sees every write.
 */
export class CollectionApp {
  readonly #state: DurableObjectState
  readonly #settings: Record<string, string>
  #app: Promise<Fetch> | undefined
  /** The app once opened: every request after the first goes straight to it. */
  #opened: Fetch | undefined

  /** The app's own `fetch` once it is open, for the object to call without this one's await. */
  get opened(): Fetch | undefined {
    return this.#opened
  }

  constructor(state: DurableObjectState, settings: Record<string, string>) {
    this.#state = state
    this.#settings = settings
  }

  async fetch(request: Request): Promise<Response> {
    if (this.#opened) return this.#opened(request)
    const startedAt = performance.now()
    // Opened by the first request, not the constructor: the MongoDB driver's sockets must be
    // opened by a request of the object to serve the ones after it. The requests that come
    // meanwhile wait for the same opening.
    this.#app ??= open(this.#state, this.#settings)
    let app: Fetch
    try {
      app = await this.#app
    } catch (error) {
      // Tried again by the next request: a database that was down may be back.
      this.#app = undefined
      const reason = error instanceof Error ? error.message : String(error)
      console.error(
        redactText(`items-service cannot start: ${reason}`, secretValues(this.#settings)),
      )
      // As the app answers a database that does not answer; a bad setting, as mail's Worker does.
      const answer =
        error instanceof SettingsError
          ? { error: 'the service is misconfigured; its log says which setting' }
          : { error: 'database unavailable' }
      return answerOutsideApp(request, 503, answer, startedAt)
    }
    this.#opened = app
    return app(request)
  }
}

/**
 * The MongoDB store's module, loaded only when used, as on Node. Only the upload for MongoDB
 * (`npm run deploy:mongodb`, wrangler.toml's `mongodb` environment) carries it and the driver:
 * the default one leaves them out, since the runtime compiles every module of an upload at each
 * start. Without them, CONNECTION_URL is a setting this upload cannot honour, said as one.
 */
async function mongoStoreModule(): Promise<typeof import('../store/mongo/mongo-item-store.js')> {
  try {
    return await import('../store/mongo/mongo-item-store.js')
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new SettingsError([
      `CONNECTION_URL: the MongoDB store could not be loaded (${reason}); an upload without the ` +
        'driver (npm run deploy) cannot use MongoDB: deploy with npm run deploy:mongodb',
    ])
  }
}

async function open(state: DurableObjectState, raw: Record<string, string>): Promise<Fetch> {
  const settings = parseEnv(raw)
  const secrets = secretValues(raw)
  let store: ItemStore
  if (settings.connectionUrl) {
    const { MongoItemStore } = await mongoStoreModule()
    store = await MongoItemStore.connect({
      url: settings.connectionUrl,
      dbName: settings.dbName,
      collectionName: settings.collectionName,
      timeoutMs: settings.connectTimeoutMs,
      socketTimeouts: false,
    })
  } else {
    store = new DurableItemStore(state.storage)
  }
  try {
    const app = createApp({
      store,
      apiKey: settings.apiKey,
      corsOrigins: settings.corsOrigins,
      // A request line holds what the service wrote and the path; an error line may quote a
      // library's message, and with it a URL or a setting that holds a secret.
      log: (line) => console.log(line.trimEnd()),
      logError: (line) => console.error(redactText(line.trimEnd(), secrets)),
      mailServiceUrl: settings.mailServiceUrl,
      events: settings.events,
      // The Worker read each body whole within BODY_TIMEOUT_MS before it handed the request on
      // (`withBodyReadFirst`), so the body here is in memory: no second deadline, no timer.
      bodyTimeoutMs: Number.POSITIVE_INFINITY,
      bounds: settings.bounds,
      // No compression: the platform compresses what it sends.
    })
    return app.fetch
  } catch (error) {
    // The next request opens the store again: this one's client must not stay behind.
    await store.close()
    throw error
  }
}
