import type { DurableObjectNamespace } from '@cloudflare/workers-types'
import type { Bindings } from './items-object.js'

export { ItemsObject } from './items-object.js'

/**
 * The module Worker: every request goes to the Durable Object of the collection
 * (`COLLECTION_NAME`, `movies` by default), which runs the same app as the Node entry.
 */
export default {
  fetch(request: Request, bindings: Bindings): Promise<Response> {
    const objects = bindings.ITEMS as DurableObjectNamespace
    const collection = typeof bindings.COLLECTION_NAME === 'string' ? bindings.COLLECTION_NAME : ''
    const object = objects.get(objects.idFromName(collection || 'movies'))
    return object.fetch(request as never) as unknown as Promise<Response>
  },
}
