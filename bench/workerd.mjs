// The Workers runtime without Miniflare: a Worker run by the `workerd` binary Miniflare itself
// runs, from a configuration of its own (Cap'n Proto text, the modules embedded by name), on a
// free loopback port, its objects' storage in a folder. Miniflare sets up services of its own
// around every Worker (its entry, the cache, the loopback to Node), which the platform does not
// run: here the runtime's work is all there is.
import { spawn } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { basename, join } from 'node:path'
import { monotonicMs } from './clock.mjs'
import { cpuMilliseconds, freePort, send } from './servers.mjs'

const fromMiniflare = createRequire(createRequire(import.meta.url).resolve('miniflare'))
/** The binary of the `workerd` package that Miniflare depends on and runs. */
export const workerdBinary = fromMiniflare('workerd').default
const compatibilityDate = (
  await readFile(new URL('../items-service/wrangler.toml', import.meta.url))
)
  .toString()
  .match(/^compatibility_date = "([\d-]+)"/m)?.[1]

/**
 * A workerd configuration of one Worker: `modules` are file names in the configuration's folder,
 * the first the main one; `bindings` Cap'n Proto binding entries; `object` the class of its
 * Durable Objects (SQLite storage in `storage`), if any; `compatibilityFlags` nodejs_compat
 * unless given.
 */
function configOf(
  { modules, bindings, object, compatibilityFlags = ['nodejs_compat'] },
  port,
  storage,
) {
  const text = (value) => JSON.stringify(value)
  const objects = object
    ? `durableObjectNamespaces = [(className = ${text(object)}, uniqueKey = "items", enableSql = true)],
  durableObjectStorage = (localDisk = "storage"),`
    : ''
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker), (name = "storage", disk = (path = ${text(storage)}, writable = true))],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [${modules.map((name) => `(name = ${text(name)}, esModule = embed ${text(name)})`).join(', ')}],
  compatibilityDate = ${text(compatibilityDate)},
  compatibilityFlags = [${compatibilityFlags.map(text).join(', ')}],
  bindings = [${bindings.join(', ')}],
  ${objects}
);
`
}

/**
 * Starts `worker` (its modules in `dir`, its storage in `storage`) and asks `path` until it
 * answers: the time from the spawn to that answer, workerd's CPU until then, the answer, its
 * URL and how to stop it. `wrap` runs workerd under another command (valgrind's, say), which
 * `stop` ends with SIGTERM so that it writes what it counted; without one, SIGKILL.
 */
export async function startWorkerd(worker, dir, storage, path, { wrap = [] } = {}) {
  const port = await freePort()
  await mkdir(storage, { recursive: true })
  const config = join(dir, `${basename(storage)}.capnp`)
  await writeFile(config, configOf(worker, port, storage))
  const started = monotonicMs()
  const [command, ...args] = [...wrap, workerdBinary, 'serve', '--experimental', config]
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let errors = ''
  child.stderr.on('data', (chunk) => {
    errors += chunk
  })
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.on('exit', resolve))
      child.kill(wrap.length > 0 ? 'SIGTERM' : 'SIGKILL')
      await exited
    }
    await rm(config, { force: true })
  }
  for (;;) {
    try {
      const answer = await send(`http://127.0.0.1:${port}${path}`)
      const ms = monotonicMs() - started
      return { ms, cpu: cpuMilliseconds(child.pid), answer, url: `http://127.0.0.1:${port}`, stop }
    } catch {
      if (child.exitCode !== null) {
        await stop()
        throw new Error(`workerd exited: ${errors}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  }
}
