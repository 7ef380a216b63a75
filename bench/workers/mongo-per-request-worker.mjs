// For the bench only: MongoDB from a plain Worker, a client per request. Each request opens a
// MongoClient, reads, and closes it (a Worker cannot use a socket another request opened), which
// is what items-service avoids by holding one client in its Durable Object. Bundled with the
// driver by wrangler's dry run, as items-service's Worker is.
//
// GET /items/:id answers the item (findOne by id); GET /items the whole collection.
import { MongoClient } from 'mongodb'

export default {
  async fetch(request, env) {
    const timeoutMs = Number(env.CONNECT_TIMEOUT_MS ?? 10_000)
    // The settings of items-service's client on Workers, socket timeouts off as there.
    const client = new MongoClient(env.CONNECTION_URL, {
      serverSelectionTimeoutMS: timeoutMs,
      connectTimeoutMS: timeoutMs,
      appName: 'bench-client-per-request',
    })
    try {
      await client.connect()
      const items = client.db(env.DB_NAME ?? 'data').collection(env.COLLECTION_NAME ?? 'movies')
      const { pathname } = new URL(request.url)
      if (pathname === '/items') {
        return Response.json(await items.find({}, { sort: { _id: 1 } }).toArray())
      }
      const id = decodeURIComponent(pathname.slice('/items/'.length))
      const item = await items.findOne({ id })
      return item ? Response.json(item) : Response.json({ error: 'not found' }, { status: 404 })
    } finally {
      await client.close()
    }
  },
}
