import type { Hook } from '@hono/zod-openapi'
import { OpenAPIHono } from '@hono/zod-openapi'
import { redactText } from '@movies-and-mail/http-kit'
import { HTTPException } from 'hono/http-exception'
import { addOpenApiRoutes } from './docs/openapi.routes.js'
import { healthRoute } from './health/health.routes.js'
import { cors } from './http/cors.js'
import { describeIssues } from './http/error-response.js'
import { type RequestLogVariables, requestLog } from './http/request-log.js'
import { type ResponseHeadersVariables, responseHeaders } from './http/response-headers.js'
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

type AppEnv = { Variables: RequestLogVariables & ResponseHeadersVariables }

const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) return
  return c.json(
    {
      error: `invalid ${result.target === 'param' ? 'path parameter' : 'request body'}`,
      issues: describeIssues(result.error.issues),
    },
    400,
  )
}

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
  app.use(responseHeaders())
  app.use(requestLog({ write: log }))
  app.use(cors({ origins: corsOrigins }))

  app.openapi(healthRoute, async (c) => {
    try {
      await store.ping()
      return c.json({ status: 'ok' as const }, 200)
    } catch (error) {
      const full = error instanceof StoreFullError
      return c.json({ error: full ? error.message : 'database unavailable' }, 503)
    }
  })
  const routes = app.route('/', itemsApp({ store, apiKey }))
  addOpenApiRoutes(app)
  app.route('/', webRoutes({ assets: webAssets, mailServiceUrl }))

  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404))
  app.onError((error, c) => {
    if (error instanceof DuplicateIdError) return c.json({ error: error.message }, 409)
    if (error instanceof StoreUnavailableError) return c.json({ error: error.message }, 503)
    if (error instanceof StoreFullError) return c.json({ error: error.message }, 507)
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ error: error.message || 'bad request' }, error.status)
    }
    // A driver's message may quote a connection string: its password must not reach the log.
    const what = redactText(error.stack ?? String(error))
    log(`${new Date().toISOString()} ${c.get('requestId')} error ${what}\n`)
    return c.json({ error: 'internal error' }, 500)
  })
  return routes
}

export type AppType = ReturnType<typeof createApp>
