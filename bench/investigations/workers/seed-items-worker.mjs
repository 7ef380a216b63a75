// Fills items-service's object with movies for the bench, faster than the API can (each POST
// answers the whole list): bundled by the bench (object-memory.mjs) with the store's own code, and
// run with the items Worker's name and object class, so that the items Worker started on the
// same storage folder afterwards finds them. `POST /` with a JSON array of stored documents
// (`_id` included) restores them; answers how many items the store holds.
import { DurableItemStore } from '../../../items-service/src/store/durable/durable-item-store.ts'

export class ItemsObject {
  #store

  constructor(state) {
    this.#store = new DurableItemStore(state.storage)
  }

  async fetch(request) {
    await this.#store.restore(await request.json(), { replace: false })
    return Response.json((await this.#store.usage()).items)
  }
}

export default {
  fetch(request, env) {
    return env.ITEMS.get(env.ITEMS.idFromName('movies')).fetch(request)
  },
}
