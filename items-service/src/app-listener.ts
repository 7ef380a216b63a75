import type { RequestListener } from 'node:http'
import { getRequestListener } from '@hono/node-server'
import { type AppOptions, createApp } from './app.js'

/**
 * The app as a Node request listener. A module of its own so that the Node entry can load it
 * (Hono, the routes, the docs, the page, and Node's fetch classes that the node adapter pulls
 * in) apart from what start-up needs.
 * @param hostname stands in for a missing Host header, as `serve()` of the node adapter does.
 */
export function createAppListener(options: AppOptions, hostname: string): RequestListener {
  return getRequestListener(createApp(options).fetch, { hostname })
}
