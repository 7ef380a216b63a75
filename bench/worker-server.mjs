// Runs a Worker under Miniflare (workerd, the Workers runtime) in a process of its own, as the
// Node servers run in theirs, so that the bench process only loads it.
//
//   node bench/worker-server.mjs <options.json>
//
// The options: { script, modules, modulesRoot, durableObjects, compatibilityFlags, persist,
// bindings, inspectorPort }: the Worker's main module, the other modules it may import (paths, as
// wrangler uploads them), their folder, its Durable Object bindings (as Miniflare takes them),
// its compatibility flags (nodejs_compat when absent), where the objects keep their storage (a
// folder; in memory when absent), its string bindings, and a port for workerd's inspector (none
// when absent). Or { workers: [{ name, script, ... }], persist }: several Workers in one workerd,
// as Workers share a runtime on the platform, each with its own socket and objects. Requests reach the Worker on a socket of workerd's own (`unsafeDirectSockets`),
// as the platform's front hands a request to a Worker: not through Miniflare's routing Worker,
// which copies each request, emulates the platform's compression and logs each request to Node
// through a loopback HTTP call. Prints `listening on <port> workerd <pid> started <ms> spawned
// <ms> ready <ms> ports <port>,...`, the times on the machine's monotonic clock: before Miniflare
// was made, as it spawned workerd, and once workerd serves; the ports each Worker's, in order.
import childProcess from 'node:child_process'
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

/**
 * When Miniflare spawned workerd: the runtime's start. Before it, Miniflare encodes the Worker's
 * configuration, its modules included, in Node, which the platform never does; that grows
 * faster than the upload (Cap'n Proto's arena copied whole at each growth: about 20 ms more for
 * a module of 0.6 MB), so a start timed from Miniflare's would charge a large upload twice.
 */
let spawned = 0
const spawn = childProcess.spawn
childProcess.spawn = (...args) => {
  spawned = monotonicMs()
  return spawn(...args)
}

/** One Worker as Miniflare takes it, with a socket of its own. */
const workerOf = (worker) => ({
  ...(worker.name && { name: worker.name }),
  // The modules themselves, not a path: given a path, Miniflare first parses the script in Node
  // to find its imports (half a second for a large bundle), which the platform never does.
  modules: [worker.script, ...(worker.modules ?? [])].map((path) => ({
    type: 'ESModule',
    path,
    contents: readFileSync(path),
  })),
  modulesRoot: worker.modulesRoot,
  compatibilityDate: '2025-01-01',
  compatibilityFlags: worker.compatibilityFlags ?? ['nodejs_compat'],
  bindings: worker.bindings ?? {},
  ...(worker.durableObjects && { durableObjects: worker.durableObjects }),
  unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
})

const workers = options.workers ?? [options]
const started = monotonicMs()
const miniflare = new Miniflare({
  workers: workers.map(workerOf),
  ...(options.persist && { durableObjectsPersist: options.persist }),
  ...(options.inspectorPort && { inspectorPort: options.inspectorPort }),
  logRequests: false,
  // workerd's console passed on as it comes, chunk by chunk. Miniflare's own way splits it into
  // lines and writes each with console.log, one write of this process a line: under a read's
  // load that relay took a third of a core the Workers share (a tenth this way).
  handleRuntimeStdio: (stdout, stderr) => {
    stdout.pipe(process.stdout)
    stderr.pipe(process.stderr)
  },
})
await miniflare.ready
const ports = []
for (const worker of workers) ports.push((await miniflare.unsafeGetDirectURL(worker.name)).port)
const port = ports[0]
const ready = monotonicMs()
// A Miniflare that starts workerd some other way would leave every start timed from zero.
if (spawned === 0) throw new Error('Miniflare started workerd without child_process.spawn')
process.stdout.write(
  `listening on ${port} workerd ${workerdPid()} started ${started} spawned ${spawned} ready ${ready}` +
    ` ports ${ports.join(',')}\n`,
)

const stop = async () => {
  await miniflare.dispose()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
