// What an ordered create costs on MongoDB. Each create of
// items-service (and each record of mail's logs) takes an `_id` after the newest stored
// (mongo-kit's `insertInOrder`): one read of the `_id` index's last entry before the insert, so
// that insertion order holds across processes and clock skew. This inserts the same documents
// with a plain `insertOne` and with `insertInOrder`, a block of each in turn, each block into a
// collection of its own, sequentially, over one client, against the tests' MongoDB server (the
// test kit's MongoStandIn, mingo underneath) or a real server given as TEST_MONGODB_URL; it
// prints the creates a second of each, the commands each create sent, and the ratio. The
// stand-in sorts by scanning, where MongoDB reads one entry of the `_id` index: the blocks are
// kept small so that its scan does not stand in for a cost MongoDB does not have. It asserts
// nothing.
//
//   node bench/investigations/mongo-creates.mjs [--creates 4000] [--block 100]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'
import { fixed, ratio } from '../format.mjs'
import { startMongoStandIn } from './mongo-stand-in.mjs'

const { values } = parseArgs({
  options: { creates: { type: 'string' }, block: { type: 'string' } },
})
const creates = Number(values.creates ?? 4_000)
const block = Number(values.block ?? 100)

const work = await mkdtemp(join(tmpdir(), 'bench-mongo-creates-'))
const kit = fileURLToPath(new URL('../../packages/mongo-kit/src/index.ts', import.meta.url))
const store = fileURLToPath(new URL('../../packages/store-kit/src/sortable-id.ts', import.meta.url))
// Beside the workspace's node_modules, from where the driver, left out of the bundle, resolves.
const outfile = fileURLToPath(
  new URL('../../node_modules/.cache/bench-mongo-creates/kit.mjs', import.meta.url),
)
await build({
  stdin: {
    contents: `export { insertInOrder } from ${JSON.stringify(kit)}\nexport { SortableIdSequence } from ${JSON.stringify(store)}\nexport { MongoClient, ObjectId } from 'mongodb'`,
    resolveDir: fileURLToPath(new URL('../../items-service', import.meta.url)),
    loader: 'ts',
  },
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['mongodb'],
  logLevel: 'warning',
})
const { insertInOrder, SortableIdSequence, MongoClient, ObjectId } = await import(
  pathToFileURL(outfile).href
)

const standIn = process.env.TEST_MONGODB_URL ? undefined : await startMongoStandIn(work)
const url = process.env.TEST_MONGODB_URL ?? standIn.url
const client = await new MongoClient(url, { monitorCommands: true }).connect()
const db = client.db(`bench_creates_${Date.now()}`)
const ids = new SortableIdSequence()
const ways = {
  'insertOne, new ObjectId()': (collection, document) =>
    collection.insertOne({ _id: new ObjectId(), ...document }),
  'insertInOrder (after the newest)': (collection, document) =>
    insertInOrder(collection, ids, (_id) => ({ _id, ...document })),
}
const spent = Object.fromEntries(
  Object.keys(ways).map((name) => [name, { ms: 0, n: 0, commands: 0 }]),
)
let commands = 0
client.on('commandStarted', () => {
  commands += 1
})
for (let done = 0; done < creates; done += block) {
  for (const [name, insert] of Object.entries(ways)) {
    const collection = db.collection(`${name.replace(/\W+/g, '_')}_${done}`)
    const sentBefore = commands
    const started = performance.now()
    for (let n = done; n < done + block; n += 1) {
      await insert(collection, { id: `tt${n}`, name: `Movie ${n}`, genre: 'Drama' })
    }
    spent[name].ms += performance.now() - started
    spent[name].n += block
    spent[name].commands += commands - sentBefore
  }
}
const server = standIn ? "the test kit's MongoStandIn" : 'TEST_MONGODB_URL'
console.log(`${creates} creates each, sequential, one client, against ${server}:\n`)
console.log('| create | creates/s | ms each | commands each |\n| --- | --: | --: | --: |')
const rates = {}
for (const [name, { ms, n, commands: sent }] of Object.entries(spent)) {
  rates[name] = (n / ms) * 1000
  console.log(`| ${name} | ${fixed(rates[name])} | ${fixed(ms / n, 3)} | ${fixed(sent / n, 2)} |`)
}
const [plain, ordered] = Object.values(rates)
console.log(`\nordered / plain: ${ratio(ordered / plain)}`)
await db.dropDatabase()
await client.close()
await standIn?.close()
await rm(work, { recursive: true, force: true })
