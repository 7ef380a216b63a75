// The data and servers a bench run starts from, and the small probes it makes of them.
import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { writeDocuments, writeJsonServerDb, writeNedbDatafile } from './movies.mjs'
import { send, startItemsService, startJsonServer, startReference, stopServer } from './servers.mjs'

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** Writes the files each server starts from, for `list`, under `dir/<n>/`. */
export async function prepare(work, list) {
  const dir = join(work, `n${list.length}`)
  await mkdir(dir, { recursive: true })
  const files = {
    dir,
    documents: join(dir, 'documents.json'),
    db: join(dir, 'db.json'),
    datafile: join(dir, 'movies.db'),
  }
  await writeDocuments(files.documents, list)
  await writeJsonServerDb(files.db, list)
  await writeNedbDatafile(files.datafile, list)
  files.store = await storeOf(join(dir, 'store'), files.datafile)
  return files
}

/**
 * An embedded store holding what `datafile` holds: items-service imports a datafile of the
 * earlier releases on its first start, and a stop closes the store cleanly, as it is after any
 * ordinary stop. Each server then starts from a copy of it.
 */
async function storeOf(dir, datafile) {
  await mkdir(dir, { recursive: true })
  await copyFile(datafile, join(dir, 'movies.db'))
  const { code } = await stopServer(await startItemsService(dir))
  if (code !== 0) throw new Error(`items-service stopped with ${code} after importing ${datafile}`)
  return dir
}

const storeFiles = ['items-service.mdb', 'items-service.closed']

let fresh = 0
/** A new DATA_DIR, holding a copy of the store in `storeDir` when given. */
export async function dataDir(work, storeDir) {
  const dir = join(work, `data-${++fresh}`)
  await mkdir(dir, { recursive: true })
  if (storeDir) {
    for (const file of storeFiles) await copyFile(join(storeDir, file), join(dir, file))
  }
  return dir
}

/** POSTs `list` to items-service through its API, a few at a time, each expecting 201. */
export async function postAll(server, list) {
  let next = 0
  const worker = async () => {
    while (next < list.length) {
      const item = list[next++]
      const answer = await send(`${server.url}/items`, { method: 'POST', body: item })
      if (answer.status !== 201) throw new Error(`POST ${item.id}: ${answer.status}`)
    }
  }
  await Promise.all(Array.from({ length: 4 }, worker))
}

/** Starts the three servers on `list`; items-service on the datafile or loaded through POST. */
export async function startAll(work, files, list, { post }) {
  const json = await startJsonServer(files.db, files.dir)
  const bound = await startReference(files.documents)
  const items = await startItemsService(await dataDir(work, post ? undefined : files.store))
  if (post) await postAll(items, list)
  return { items, bound, json }
}

/** How many items a server lists now. */
export async function listed(server) {
  const answer = await send(`${server.url}/items`)
  return JSON.parse(answer.text()).length
}

/** Median time of one PUT (sequential), after two untimed ones; and the answer's bytes. */
export async function timePut(server, id, tries) {
  const times = []
  let bytes = 0
  for (let i = 0; i < tries + 2; i++) {
    const answer = await send(`${server.url}/items/${id}`, {
      method: 'PUT',
      body: { rating: ((i % 90) + 10) / 10 },
    })
    if (answer.status !== 200) throw new Error(`${server.name} PUT ${id}: ${answer.status}`)
    if (i >= 2) times.push(answer.ms)
    bytes = answer.bytes
  }
  return { ms: median(times), bytes }
}
