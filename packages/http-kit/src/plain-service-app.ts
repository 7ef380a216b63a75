import { Hono } from 'hono'
import { PatternRouter } from 'hono/router/pattern-router'
import { type ServiceAppOptions, type ServiceEnv, servicePipeline } from './service-pipeline.js'

/**
 * A Hono app with what every request to an app of both micros gets (`servicePipeline`, as its
 * one middleware), for routes that validate nothing and have no schema to give: loading it
 * evaluates no route table and no zod. A Worker answers its page with it, where an isolate that
 * starts for a page view would otherwise evaluate every route's declaration (`createServiceApp`
 * and the routes).
 * @example createPlainServiceApp({ log, corsOrigins: [], apiKeys: [] }).get('/', answerPage)
 */
export function createPlainServiceApp(options: ServiceAppOptions): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>({ router: new PatternRouter() })
  const pipeline = servicePipeline(options, () => app.routes)
  app.use(pipeline.middleware)
  app.notFound(pipeline.notFound)
  app.onError(pipeline.onError)
  return app
}
