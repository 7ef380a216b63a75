// MongoDB from a Worker, for npm run bench: items-service's Worker, whose Durable Object holds
// the driver's client, against a Worker opening a client per request, both on the tests' MongoDB
// wire-protocol stand-in.
import { join } from 'node:path'
import { MongoClient } from 'mongodb'
import { median } from './fixtures.mjs'
import { startMongoStandIn } from './mongo-stand-in.mjs'
import { send, stopServer } from './servers.mjs'
import {
  bundleClientPerRequest,
  clientPerRequestWorker,
  itemsWorker,
  startWorker,
} from './worker-servers.mjs'

const handshakes = new Set(['hello', 'isMaster', 'ismaster'])
const laterReads = 20
const laterLists = 5

/**
 * MongoDB from a Worker, against the wire-protocol stand-in (a one-member replica set, as Atlas
 * clusters are, holding the n movies): items-service's Worker, whose object holds the client,
 * and the bench's Worker opening a client per request. For each, `tries` fresh starts: the first
 * GET /items/:id, then later ones and later GET /items, sequential; and the handshakes and
 * heartbeats (`hello`) the stand-in received per later request.
 */
export async function measureMongo({ dir, script, base, ids, tries }) {
  const standIn = await startMongoStandIn(dir, { setName: 'rs0' })
  try {
    const client = new MongoClient(standIn.url)
    await client.connect()
    await client
      .db('data')
      .collection('movies')
      .insertMany(base.map((item) => ({ ...item })))
    await client.close()
    const perRequest = bundleClientPerRequest(dir)
    const variants = {
      object: (i) =>
        itemsWorker(
          script,
          join(dir, `mongo-${i}`),
          { CONNECTION_URL: standIn.url },
          { upload: 'mongodb' },
        ),
      perRequest: () => clientPerRequestWorker(perRequest, standIn.url),
    }
    const found = { object: [], perRequest: [] }
    for (let i = 0; i < tries; i++) {
      for (const [key, options] of Object.entries(variants)) {
        const server = await startWorker(`MongoDB ${key}`, options(i), dir)
        try {
          found[key].push(await timeMongoReads(server, standIn, ids[0]))
        } finally {
          await stopServer(server)
        }
      }
    }
    const summary = (all) => ({
      tries: all.length,
      first: median(all.map((one) => one.first)),
      later: median(all.map((one) => one.later)),
      list: median(all.map((one) => one.list)),
      hellos: median(all.map((one) => one.hellos)),
    })
    return { n: base.length, object: summary(found.object), perRequest: summary(found.perRequest) }
  } finally {
    await standIn.close()
  }
}

async function timeMongoReads(server, standIn, id) {
  const read = async (path) => {
    const answer = await send(`${server.url}${path}`)
    if (answer.status !== 200) {
      throw new Error(`${server.name} GET ${path}: ${answer.status} ${answer.text()}`)
    }
    return answer.ms
  }
  const first = await read(`/items/${id}`)
  const before = standIn.commands.length
  const later = []
  for (let i = 0; i < laterReads; i++) later.push(await read(`/items/${id}`))
  const hellos = standIn.commands.slice(before).filter(({ name }) => handshakes.has(name)).length
  const lists = []
  for (let i = 0; i < laterLists; i++) lists.push(await read('/items'))
  return { first, later: median(later), list: median(lists), hellos: hellos / laterReads }
}
