import {
  bodyDeadlineMs,
  unreadBodyResponse,
  withBodyReadFirst,
} from '@movies-and-mail/http-kit/workers-runtime'
import { maxItemBodyBytes } from '../items/max-item-body-bytes.js'
import { asksForPage } from './asks-for-page.js'
import type { Bindings } from './items-object.js'
import type { webPage } from './web-page.js'
import type { workerApp } from './worker-app.js'

export { ItemsObject } from './items-object.js'

/**
 * The page, made by the first request for it in this isolate (the bindings do not change), from
 * a module loaded then: a start evaluates none of it.
 */
let page: Promise<ReturnType<typeof webPage>> | undefined
/** The app, made by the first other request, from a module loaded then, as the page is. */
let app: Promise<ReturnType<typeof workerApp>> | undefined
/** BODY_TIMEOUT_MS, read once per isolate, as the bindings are. */
let deadlineMs: number | undefined

/**
 * The module Worker. The web app's files and the docs are static assets, which the platform
 * serves without running it (`[assets]` in wrangler.toml). The page at `/` it answers itself
 * (`webPage`); every other request the service's app answers (`workerApp`), over the
 * collection's Durable Object. A body is read here first (`withBodyReadFirst`), within
 * BODY_TIMEOUT_MS (408 after it), a refused one included: the connection then carries the
 * client's next request. The module holds only that: the app, the page and the store are
 * modules loaded when first used.
 */
export default {
  async fetch(request: Request, bindings: Bindings): Promise<Response> {
    if (asksForPage(request)) {
      page ??= import('./web-page.js').then(({ webPage }) => webPage(bindings))
      const response = await page
      if (response) return response(request)
    }
    deadlineMs ??= bodyDeadlineMs(bindings.BODY_TIMEOUT_MS)
    const startedAt = performance.now()
    const whole = await withBodyReadFirst(request, maxItemBodyBytes, deadlineMs)
    if (typeof whole === 'string') {
      // Answered before the app runs, and counted as its answers are: the module that counts is
      // loaded then, as the app's is.
      const { analyticsEngineRequestsOf } = await import(
        '@movies-and-mail/http-kit/workers-monitoring'
      )
      const points = analyticsEngineRequestsOf(bindings)
      return unreadBodyResponse(request, whole, deadlineMs, startedAt, points)
    }
    app ??= import('./worker-app.js').then(({ workerApp }) => workerApp(bindings))
    return (await app)(whole)
  },
}
