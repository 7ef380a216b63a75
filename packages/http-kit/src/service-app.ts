import { PatternRouter } from 'hono/router/pattern-router'
import { ApiApp } from './api-app.js'
import {
  type ServiceAppOptions,
  type ServiceEnv,
  withServiceMiddleware,
} from './service-middleware.js'

export type { ServiceAppOptions, ServiceEnv } from './service-middleware.js'

/**
 * The Hono app every route of both micros is added to (`ApiApp`: each route's checks answer 400
 * alike, and its declaration is kept for the OpenAPI document), with what each of them has in
 * the same form (`withServiceMiddleware`).
 * @example const app = createServiceApp({ log, corsOrigins: ['*'], apiKeys: [key] })
 */
export function createServiceApp(options: ServiceAppOptions): ApiApp<ServiceEnv> {
  // A service has a few dozen routes: one regular expression per route, tried in order, finds
  // them faster than the default's tree (`RegExpRouter` cannot hold `/items/events` beside
  // `/items/:id`, so the default falls back to the tree), and is built when added.
  return withServiceMiddleware(new ApiApp<ServiceEnv>({ router: new PatternRouter() }), options)
}
