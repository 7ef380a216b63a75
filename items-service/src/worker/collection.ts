import type { DurableObjectState } from '@cloudflare/workers-types'
import { redactText } from '@movies-and-mail/http-kit/redact'
import { misconfiguredMessage, SettingsError } from '@movies-and-mail/http-kit/settings'
import { Hono } from 'hono'
import { parseEnv, secretValues } from '../env.js'
import { eventsApp } from '../events/events.app.js'
import { withBounds } from '../store/bounded-item-store.js'
import { DurableItemStore } from '../store/durable/durable-item-store.js'
import type { ItemStore, NewItem } from '../store/item-store.js'
import {
  collectionPaths,
  type Failure,
  failureOf,
  failureResponse,
  listResponse,
  type RemoveCall,
  type UpdateCall,
  unavailableMessage,
  writeResponse,
} from './collection-protocol.js'

/** What the collection's object serves, once open: its store, bounded, and its `fetch` calls. */
export type Collection = {
  store: ItemStore
  fetch: (request: Request) => Response | Promise<Response>
  /** A call's error as the object answers it; one the store did not choose is logged. */
  failureFor: (error: unknown) => Failure
}

const misconfigured: Failure = { failed: 'unavailable', message: misconfiguredMessage }

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

/** The store the settings name, bounded by them. */
async function openStore(state: DurableObjectState, raw: Record<string, string>) {
  const settings = parseEnv(raw)
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
  return { store: settings.bounds ? withBounds(store, settings.bounds) : store, settings }
}

/**
 * Opens the collection the settings name: MongoDB through the official driver when
 * `CONNECTION_URL` is set (the object holds the client, so its connection and change stream
 * live across requests; a Worker cannot use a socket another request opened), otherwise the
 * object's own SQLite storage. Its bounds (ITEMS_MAX_COUNT, ITEMS_MAX_BYTES) are checked here,
 * the one place every write passes: a Worker's isolates could not count each other's writes.
 * The change feed's streams are served here too, the one place that sees every write. What
 * could not be opened is logged, and answered as a failure: the next call tries again, since a
 * database that was down may be back.
 */
export async function openCollection(
  state: DurableObjectState,
  raw: Record<string, string>,
): Promise<Collection | Failure> {
  const secrets = secretValues(raw)
  let opened: Awaited<ReturnType<typeof openStore>>
  try {
    opened = await openStore(state, raw)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    console.error(redactText(`items-service cannot start: ${reason}`, secrets))
    return error instanceof SettingsError
      ? misconfigured
      : { failed: 'unavailable', message: unavailableMessage }
  }
  const { store, settings } = opened
  const failureFor = (error: unknown): Failure => {
    const known = failureOf(error)
    if (known) return known
    const what = error instanceof Error ? (error.stack ?? error.message) : String(error)
    console.error(redactText(`items-service collection error: ${what}`, secrets))
    return { failed: 'unavailable', message: unavailableMessage }
  }
  const app = new Hono()
    .get(collectionPaths.list, async () => listResponse(await store.list()))
    .post(collectionPaths.insert, async (c) =>
      writeResponse(await store.insert(await c.req.json<NewItem>())),
    )
    .post(collectionPaths.update, async (c) => {
      const { id, fields, ifMatch, by } = await c.req.json<UpdateCall>()
      return writeResponse(await store.update(id, fields, ifMatch, by))
    })
    .post(collectionPaths.remove, async (c) => {
      const { id, ifMatch, by } = await c.req.json<RemoveCall>()
      return writeResponse(await store.remove(id, ifMatch, by))
    })
    // The client's own request, handed on by the Worker's app.
    .route('/', eventsApp({ store, ...settings.events }))
  app.onError((error) => failureResponse(failureFor(error)))
  return { store, fetch: (request) => app.fetch(request), failureFor }
}
