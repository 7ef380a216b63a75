// Runs a Worker under Miniflare (workerd, the Workers runtime) in a process of its own, as the
// Node servers run in theirs, so that the bench process only loads it.
//
//   node bench/worker-server.mjs <options.json>
//
// The options: { script, modulesRoot, objects, persist, bindings }: the module Worker's path
// (one module, as wrangler's bundle is), its folder, whether it binds the items-service Durable Object (ITEMS, class ItemsObject,
// SQLite storage), where the objects keep their storage (a folder; in memory when absent), and
// its string bindings. Requests reach the Worker on a socket of workerd's own
// (`unsafeDirectSockets`), as the platform's front hands a request to a Worker: not through
// Miniflare's routing Worker, which copies each request, emulates the platform's compression
// and logs each request to Node through a loopback HTTP call. Prints
// `listening on <port> workerd <pid> started <ms> ready <ms>`, the times on the machine's
// monotonic clock: before Miniflare was made, and once workerd serves.
import { readdirSync, readFileSync } from 'node:fs'
import { Miniflare } from 'miniflare'
import { monotonicMs } from './clock.mjs'

const options = JSON.parse(readFileSync(process.argv[2], 'utf8'))

/** workerd's process id: the child of this process that Miniflare spawned. */
function workerdPid() {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const [, name, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? []
      if (name === 'workerd' && Number(rest.split(' ')[1]) === process.pid) return Number(entry)
    } catch {
      // Gone meanwhile.
    }
  }
  throw new Error('no workerd process found')
}

const started = monotonicMs()
const miniflare = new Miniflare({
  // The module itself, not its path: given a path, Miniflare parses the script in Node to find
  // its imports first (half a second for items-service's bundle), which the platform never does.
  // Each Worker here is one module.
  modules: [{ type: 'ESModule', path: options.script, contents: readFileSync(options.script) }],
  modulesRoot: options.modulesRoot,
  compatibilityDate: '2025-01-01',
  compatibilityFlags: ['nodejs_compat'],
  bindings: options.bindings ?? {},
  ...(options.objects && {
    durableObjects: { ITEMS: { className: 'ItemsObject', useSQLite: true } },
  }),
  ...(options.persist && { durableObjectsPersist: options.persist }),
  unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
  logRequests: false,
})
await miniflare.ready
const { port } = await miniflare.unsafeGetDirectURL()
const ready = monotonicMs()
process.stdout.write(
  `listening on ${port} workerd ${workerdPid()} started ${started} ready ${ready}\n`,
)

const stop = async () => {
  await miniflare.dispose()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
