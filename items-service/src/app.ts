import { createServiceApp, type ServiceAppOptions } from '@movies-and-mail/http-kit/app'
import { addDocsRoutes } from '@movies-and-mail/http-kit/docs'
import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import { type EventsOptions, eventsApp } from './events/events.app.js'
import { type FollowChanges, forwardedEventsApp } from './events/forwarded-events.app.js'
import { healthApp } from './health/health.app.js'
import { fieldRules } from './items/item.schema.js'
import { type Compress, itemsApp } from './items/items.app.js'
import { type Bounds, withBounds } from './store/bounded-item-store.js'
import type { ItemStore } from './store/item-store.js'
import type { IssuerUsers } from './users/issuer-users.js'
import { webRoutes } from './web/web.routes.js'
import type { WebAssets } from './web/web-assets.js'

export type AppOptions = {
  store: ItemStore
  /** When set, mutations need it in `x-apikey`. */
  apiKey?: string | undefined
  /**
   * The users of an OpenID issuer (ITEMS_JWT_ISSUER): then a write needs one's token or the
   * key, whatever its origin; without, writes are as `apiKey` and `corsOrigins` say.
   */
  users?: IssuerUsers | undefined
  /** The origins whose pages may write without the key (`['*']`: any); none by default. */
  corsOrigins?: readonly string[]
  /**
   * Where request lines go, and errors unless `logError` is given; stdout by default; null:
   * none (a JSON log takes `onResponse` and `onError`).
   */
  log?: ((line: string) => void) | null
  /** Where the lines of unexpected errors go (their secrets redacted there); `log` by default. */
  logError?: (line: string) => void
  /** Sees each finished request's record (metrics, a JSON log): the kit's `onResponse`. */
  onResponse?: ServiceAppOptions['onResponse']
  /** Takes unexpected errors as records instead of lines (a JSON log). */
  onError?: ServiceAppOptions['onError']
  /** The built web app served at `/`; none in tests that do not need it. */
  webAssets?: WebAssets
  /** Where the web app's "Send mail" form posts. */
  mailServiceUrl?: string
  /** Limits and timing of the change feed's streams; the defaults otherwise. */
  events?: Omit<EventsOptions, 'store'>
  /**
   * Where the change feed's streams are answered when `store` does not hold the feed (a Worker:
   * the collection's object); from `store.changes` by default.
   */
  followChanges?: FollowChanges
  /** Compresses the list for clients that take it (Node); none where the platform does. */
  compress?: Compress
  /** How long a write's body may take to arrive (BODY_TIMEOUT_MS): 408 after it; Infinity: none. */
  bodyTimeoutMs?: number
  /** How much the collection may hold (ITEMS_MAX_COUNT, ITEMS_MAX_BYTES); unbounded without. */
  bounds?: Bounds | undefined
}

/**
 * items-service as a Hono app over the given store. Pure: reads no environment, opens nothing.
 * @example createApp({ store: await EmbeddedItemStore.open('.data') })
 */
export function createApp({
  store,
  apiKey,
  users,
  corsOrigins = [],
  log = (line) => process.stdout.write(line),
  logError,
  onResponse,
  onError,
  webAssets = new Map(),
  mailServiceUrl = 'http://localhost:4001',
  events = {},
  followChanges,
  compress,
  bodyTimeoutMs,
  bounds,
}: AppOptions) {
  const app = createServiceApp({
    log,
    ...(logError && { logError }),
    onResponse,
    onError,
    corsOrigins,
    apiKeys: apiKey === undefined ? [] : [apiKey],
    users: users && { verify: users.verify, realm: 'items-service' },
    // A store that cannot answer, or has no room: 503 or 507, with the store's message.
    knownErrors: [
      [StoreUnavailableError, 503],
      [StoreFullError, 507],
    ],
    ...(bodyTimeoutMs !== undefined && { bodyTimeoutMs }),
  })
  app.include(healthApp({ store }))
  // Before the item routes: `/items/events` is the feed, not the item of id `events`.
  app.include(followChanges ? forwardedEventsApp(followChanges) : eventsApp({ store, ...events }))
  const writable = bounds ? withBounds(store, bounds) : store
  app.include(itemsApp({ store: writable, compress }))
  addDocsRoutes(app, {
    title: 'items-service',
    version: '1.0.0',
    description:
      'Movie records for browser apps. Every mutation answers the complete current list. Errors are `{"error": "..."}`, with `issues` for validation. A method a path does not have answers 405 with `Allow`; a plain `OPTIONS` answers 204 with `Allow`.',
    tags: { Items: 'Movie records, by id', 'Web app': 'The browser app that uses this API' },
    keyed: apiKey !== undefined,
    users: users !== undefined,
    schemas: fieldRules.components,
  })
  return app.include(webRoutes({ assets: webAssets, mailServiceUrl, signIn: users?.signIn }))
}

export type AppType = ReturnType<typeof createApp>
