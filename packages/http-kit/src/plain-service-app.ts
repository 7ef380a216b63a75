import { Hono } from 'hono'
import { PatternRouter } from 'hono/router/pattern-router'
import {
  type ServiceAppOptions,
  type ServiceEnv,
  withServiceMiddleware,
} from './service-middleware.js'

/**
 * A Hono app with the middleware of every app of both micros (`withServiceMiddleware`), for
 * routes that validate nothing and have no schema to give: loading it evaluates no route table
 * and no zod. A Worker answers its page with it, where an isolate that starts for a page view
 * would otherwise evaluate every route's declaration (`createServiceApp` and the routes).
 * @example createPlainServiceApp({ log, corsOrigins: [], apiKeys: [] }).get('/', answerPage)
 */
export function createPlainServiceApp(options: ServiceAppOptions): Hono<ServiceEnv> {
  return withServiceMiddleware(new Hono<ServiceEnv>({ router: new PatternRouter() }), options)
}
