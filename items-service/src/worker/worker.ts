import type { DurableObjectId } from '@cloudflare/workers-types'
import {
  bodyDeadlineMs,
  unreadBodyAnswer,
  withBodyReadFirst,
} from '@movies-and-mail/http-kit/worker'
import { maxItemBodyBytes } from '../items/max-item-body-bytes.js'
import { asksForPage } from './asks-for-page.js'
import { type Bindings, settingsOf } from './items-object.js'
import type { webPage } from './web-page.js'

export { ItemsObject } from './items-object.js'

/**
 * The page, made by the first request for it in this isolate (the bindings do not change), from
 * a module loaded then: a start evaluates none of it.
 */
let page: Promise<ReturnType<typeof webPage>> | undefined
/**
 * The collection's object, named once per isolate: naming it hashes the name, a twentieth of a
 * read's work in the runtime. Only the id is kept; a stub serves the request that made it.
 */
let objectId: DurableObjectId | undefined
/** BODY_TIMEOUT_MS, read once per isolate, as the object's name is. */
let deadlineMs: number | undefined

/** What the Worker asks of the `ITEMS` binding: the collection's object, to hand it a request. */
type ItemsNamespace = {
  idFromName(name: string): DurableObjectId
  get(id: DurableObjectId): { fetch(request: Request): Promise<Response> }
}

/**
 * The module Worker. The web app's files and the docs are static assets, which the platform
 * serves without running it (`[assets]` in wrangler.toml). The page at `/` it answers itself
 * (`webPage`); every other request goes to the Durable Object of the collection
 * (`COLLECTION_NAME`, `movies` by default), which runs the same app as the Node entry. Its body
 * is read here first (`withBodyReadFirst`), within BODY_TIMEOUT_MS (408 after it): the object
 * gets none still streaming. The module holds only that: the app, the page and the store are
 * modules loaded when first used.
 */
export default {
  async fetch(request: Request, bindings: Bindings): Promise<Response> {
    if (asksForPage(request)) {
      page ??= import('./web-page.js').then(({ webPage }) => webPage(settingsOf(bindings)))
      const answer = await page
      if (answer) return answer(request)
    }
    const objects = bindings.ITEMS as ItemsNamespace
    if (!objectId) {
      const collection =
        typeof bindings.COLLECTION_NAME === 'string' ? bindings.COLLECTION_NAME : ''
      objectId = objects.idFromName(collection || 'movies')
    }
    const object = objects.get(objectId)
    deadlineMs ??= bodyDeadlineMs(bindings.BODY_TIMEOUT_MS)
    const startedAt = performance.now()
    const whole = await withBodyReadFirst(request, maxItemBodyBytes, deadlineMs)
    if (typeof whole === 'string') return unreadBodyAnswer(request, whole, deadlineMs, startedAt)
    return object.fetch(whole)
  },
}
