import { OpenAPIHono } from '@hono/zod-openapi'
import { PatternRouter } from 'hono/router/pattern-router'
import { apiKeyScheme } from './api-key.js'
import { validationHook } from './errors.js'
import {
  type ServiceAppOptions,
  type ServiceEnv,
  withServiceMiddleware,
} from './service-middleware.js'

export type { ServiceAppOptions, ServiceEnv } from './service-middleware.js'

/**
 * The Hono app every route of both micros is added to, with what each of them has in the same
 * form (`withServiceMiddleware`), 400s from validation, and the API-key scheme for guarded
 * routes in its OpenAPI document.
 * @example const app = createServiceApp({ log, corsOrigins: ['*'], apiKeys: [key] })
 */
export function createServiceApp(options: ServiceAppOptions): OpenAPIHono<ServiceEnv> {
  // A service has a few dozen routes: one regular expression per route, tried in order, finds
  // them faster than the default's tree (`RegExpRouter` cannot hold `/items/events` beside
  // `/items/:id`, so the default falls back to the tree), and is built when added.
  const app = new OpenAPIHono<ServiceEnv>({
    defaultHook: validationHook,
    router: new PatternRouter(),
  })
  withServiceMiddleware(app, options)
  app.openAPIRegistry.registerComponent('securitySchemes', apiKeyScheme.name, apiKeyScheme.scheme)
  return app
}
