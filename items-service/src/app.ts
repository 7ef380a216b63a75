import { OpenAPIHono } from '@hono/zod-openapi'
import {
  type ApiKeyVariables,
  acceptApiKeys,
  apiKeyScheme,
  cors,
  errorHandler,
  notFound,
  type RequestLogVariables,
  requestLog,
  validationHook,
} from '@movies-and-mail/http-kit'
import { addDocsRoutes } from './docs/docs.routes.js'
import { healthApp } from './health/health.app.js'
import { itemsApp } from './items/items.app.js'
import {
  DuplicateIdError,
  type ItemStore,
  StoreFullError,
  StoreUnavailableError,
} from './store/item-store.js'
import { webRoutes } from './web/web.routes.js'
import type { WebAssets } from './web/web-assets.js'

export type AppOptions = {
  store: ItemStore
  /** When set, mutations need it in `x-apikey`. */
  apiKey?: string | undefined
  /** `['*']` or the exact origins browser apps call from. */
  corsOrigins?: readonly string[]
  /** Where request lines and errors go; stdout by default. */
  log?: (line: string) => void
  /** The built web app served at `/`; none in tests that do not need it. */
  webAssets?: WebAssets
  /** Where the web app's "Send mail" form posts. */
  mailServiceUrl?: string
}

type AppEnv = { Variables: RequestLogVariables & ApiKeyVariables }

/**
 * items-service as a Hono app over the given store. Pure: reads no environment, opens nothing.
 * @example createApp({ store: await EmbeddedItemStore.open('.data') })
 */
export function createApp({
  store,
  apiKey,
  corsOrigins = ['*'],
  log = (line) => process.stdout.write(line),
  webAssets = new Map(),
  mailServiceUrl = 'http://localhost:4001',
}: AppOptions) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  app.use(requestLog({ write: log }), cors({ origins: corsOrigins }))
  app.use(acceptApiKeys(apiKey === undefined ? [] : [apiKey]))
  app.openAPIRegistry.registerComponent('securitySchemes', apiKeyScheme.name, apiKeyScheme.scheme)
  app.route('/', healthApp({ store }))
  const routes = app.route('/', itemsApp({ store }))
  addDocsRoutes(app)
  app.route('/', webRoutes({ assets: webAssets, mailServiceUrl }))
  app.notFound(notFound)
  app.onError(
    errorHandler({
      log,
      known: [
        [DuplicateIdError, 409],
        [StoreUnavailableError, 503],
        [StoreFullError, 507],
      ],
    }),
  )
  return routes
}

export type AppType = ReturnType<typeof createApp>
