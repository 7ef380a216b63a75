// workerd's own start, without Miniflare (workerd.mjs): each Worker timed from workerd's spawn
// to the first answer. Under Miniflare (bench/worker-server.mjs) every start also sets up the
// services Miniflare adds around a Worker, the same for every Worker: here the runtime's start is
// all there is.
// The bare Worker, the bare Worker through an object, and items-service's Worker (its default
// upload, its object's storage holding n movies, POSTed once through the API), started in turn,
// the order reversed every round, for `GET /items` (the object's first request: the app loads,
// the store reads the list) and for `GET /` (items-service's page, which the Worker answers
// itself; the bare Workers answer 404). workerd's CPU is summed over its threads.
// With `--parts`, where items-service's start goes instead: the bare Worker and items-service's
// upload with a main module of the bench's that stops after one more step of the first
// `GET /items` each (nothing of the app loaded; its modules loaded; the app made; the
// collection's object woken and its store opened, through the protocol's `ping`), then the
// whole first request, interleaved round by round; each step's cost is its CPU over the one
// before (medians: CPU moves less than the wall clock on a busy machine).
//   npm run bench:workerdstart [-- --rounds 9] [--n 1000] [--parts]
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { median, postAll } from './fixtures.mjs'
import { count, fixed, ratio } from './format.mjs'
import { documents, movies } from './movies.mjs'
import { itemsWorker, snapshotItemsBundle } from './worker-servers.mjs'
import { startWorkerd } from './workerd.mjs'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    n: { type: 'string', default: '1000' },
    parts: { type: 'boolean', default: false },
  },
})
const rounds = Number(values.rounds)
const n = Number(values.n)
const work = await mkdtemp(join(tmpdir(), 'workerd-start-'))
try {
  const base = movies(n)
  // Every module beside the configuration, which embeds them by name.
  const script = await snapshotItemsBundle(work)
  const itemsDir = dirname(script)
  const itemsModules = [script, ...itemsWorker(script).modules].map((path) => basename(path))
  await cp(new URL('workers/bare-worker.mjs', import.meta.url), join(itemsDir, 'bare-worker.mjs'))
  await writeFile(join(itemsDir, 'documents.json'), JSON.stringify(documents(base)))
  const documentsBinding = '(name = "DOCUMENTS", text = embed "documents.json")'
  const itemsBinding = '(name = "ITEMS", durableObjectNamespace = "ItemsObject")'
  const workers = {
    'bare Worker': { modules: ['bare-worker.mjs'], bindings: [documentsBinding] },
    'bare Worker through an object': {
      modules: ['bare-worker.mjs'],
      bindings: [documentsBinding, itemsBinding],
      object: 'ItemsObject',
    },
    'items-service': {
      modules: itemsModules,
      bindings: ['(name = "CORS_ORIGINS", text = "*")', itemsBinding],
      object: 'ItemsObject',
    },
  }

  // The movies POSTed once; each start of items-service gets a copy of that storage.
  const seeded = join(work, 'seeded')
  const seeding = await startWorkerd(workers['items-service'], itemsDir, seeded, '/items')
  try {
    await postAll(seeding, base)
  } finally {
    await seeding.stop()
  }
  let copies = 0
  /** `rounds` starts of each of `byLabel`'s Workers for `path`, the order reversed every round. */
  async function timeStarts(byLabel, path, expected) {
    const times = Object.fromEntries(Object.keys(byLabel).map((label) => [label, []]))
    for (let round = 1; round <= rounds; round++) {
      const order = Object.keys(byLabel)
      if (round % 2 === 0) order.reverse()
      for (const label of order) {
        const storage = join(work, `state-${++copies}`)
        if (byLabel[label].seeded) await cp(seeded, storage, { recursive: true })
        const { ms, cpu, answer, stop } = await startWorkerd(
          byLabel[label],
          itemsDir,
          storage,
          path,
        )
        await stop()
        await rm(storage, { recursive: true, force: true })
        if (answer.status !== expected(label)) {
          throw new Error(`${label}: GET ${path} ${answer.status}`)
        }
        times[label].push({ ms, cpu })
      }
    }
    return times
  }
  const medians = (runs) => ({
    ms: median(runs.map((run) => run.ms)),
    cpu: median(runs.map((run) => run.cpu)),
  })
  workers['items-service'].seeded = true

  if (values.parts) {
    // items-service's own upload and storage, its main module one of these, each a step further
    // into the first `GET /items` than the one before (the object's store opens with its first
    // call, whichever: `ping` opens it and answers nothing else).
    const appModule = itemsModules.find((name) => name.startsWith('worker-app-'))
    const objectOnly = "export { ItemsObject } from './entry.js'\n"
    const steps = {
      "items-service's upload, nothing of the app loaded": 'return new Response("{}")',
      "+ the app's modules loaded": `await import('./${appModule}'); return new Response("{}")`,
      '+ the app made': `(await import('./${appModule}')).workerApp(env); return new Response("{}")`,
      "+ the collection's object woken, its store opened": `(await import('./${appModule}')).workerApp(env); const object = env.ITEMS.get(env.ITEMS.idFromName('movies')); return Response.json(await object.ping())`,
    }
    const byStep = { 'bare Worker': workers['bare Worker'] }
    let part = 0
    for (const [label, body] of Object.entries(steps)) {
      const main = `start-part-${++part}.js`
      await writeFile(
        join(itemsDir, main),
        `${objectOnly}export default { async fetch(request, env) { ${body} } }\n`,
      )
      byStep[label] = { ...workers['items-service'], modules: [main, ...itemsModules] }
    }
    byStep['+ the first request answered: items-service'] = workers['items-service']
    const times = await timeStarts(byStep, '/items', () => 200)
    console.log(
      `Where items-service's start goes under workerd alone (${rounds} starts each, interleaved, medians): from workerd's spawn to the first answer of \`GET /items\`; its storage holds ${count(n)} movies.\n`,
    )
    console.log(
      '| Worker, or how far into the first request | spawn to the answer | workerd CPU | the step |',
    )
    console.log('|---|--:|--:|--:|')
    let before
    for (const [label, runs] of Object.entries(times)) {
      const { ms, cpu } = medians(runs)
      const more = cpu - before
      const step =
        before === undefined || label === 'bare Worker'
          ? ''
          : `${more < 0 ? '' : '+'}${fixed(more)} ms`
      console.log(`| ${label} | ${fixed(ms)} ms | ${fixed(cpu)} ms | ${step} |`)
      if (label !== 'bare Worker') before = cpu
    }
  } else {
    const times = {}
    for (const path of ['/items', '/']) {
      times[path] = await timeStarts(workers, path, (label) =>
        label === 'items-service' || path === '/items' ? 200 : 404,
      )
    }
    console.log(
      `Starts of each Worker under workerd alone (${rounds} each, medians), from workerd's spawn to the first answer; items-service holds ${count(n)} movies.\n`,
    )
    console.log(
      '| first request | Worker | spawn to the answer | over the bare Worker | workerd CPU |',
    )
    console.log('|---|---|--:|--:|--:|')
    for (const [path, byLabel] of Object.entries(times)) {
      const bare = medians(byLabel['bare Worker']).ms
      for (const [label, runs] of Object.entries(byLabel)) {
        const { ms, cpu } = medians(runs)
        console.log(
          `| GET ${path} | ${label} | ${fixed(ms)} ms | ${ratio(ms / bare)} | ${fixed(cpu)} ms |`,
        )
      }
    }
  }
} finally {
  await rm(work, { recursive: true, force: true })
}
