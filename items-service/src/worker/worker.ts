import type { DurableObjectNamespace } from '@cloudflare/workers-types'
import { withBodyReadFirst } from '@movies-and-mail/http-kit/worker'
import { maxItemBodyBytes } from '../items/items.routes.js'
import { type Bindings, settingsOf } from './items-object.js'
import { asksForPage, webPage } from './web-page.js'

export { ItemsObject } from './items-object.js'

/** The page, made by the first request for it in this isolate (the bindings do not change). */
let page: ReturnType<typeof webPage>

/**
 * The module Worker. The web app's files and the docs are static assets, which the platform
 * serves without running it (`[assets]` in wrangler.toml). The page at `/` it answers itself
 * (`webPage`); every other request goes to the Durable Object of the collection
 * (`COLLECTION_NAME`, `movies` by default), which runs the same app as the Node entry. Its body
 * is read here first (`withBodyReadFirst`): the object gets none still streaming.
 */
export default {
  async fetch(request: Request, bindings: Bindings): Promise<Response> {
    if (asksForPage(request)) {
      page ??= webPage(settingsOf(bindings))
      if (page) return page(request)
    }
    const objects = bindings.ITEMS as DurableObjectNamespace
    const collection = typeof bindings.COLLECTION_NAME === 'string' ? bindings.COLLECTION_NAME : ''
    const object = objects.get(objects.idFromName(collection || 'movies'))
    const whole = await withBodyReadFirst(request, maxItemBodyBytes)
    // The client went away mid-body: no one reads this answer.
    if (whole === null) return Response.json({ error: 'request body was cut off' }, { status: 400 })
    return object.fetch(whole as never) as unknown as Promise<Response>
  },
}
