// Starts and stops the servers under test as child processes on free loopback ports, and reads
// their CPU time and memory from /proc. Every child is tracked so that it is stopped at the end,
// on failure and on Ctrl-C.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { cp, symlink } from 'node:fs/promises'
import { Agent, createServer, request } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const itemsDist = fileURLToPath(new URL('../items-service/dist/', import.meta.url))
let itemsEntry = join(itemsDist, 'server.js')
const referenceEntry = fileURLToPath(new URL('reference-server.mjs', import.meta.url))
const jsonServerBin = fileURLToPath(
  new URL('../node_modules/json-server/lib/cli/bin.js', import.meta.url),
)

const running = new Set()

/**
 * Spawns `node <args>`, drains its stdout and stderr the way a terminal or a pipe would (keeping
 * the tail for error messages), and resolves once `ready(stdout so far)` returns a port; the
 * server's `head` is what it printed up to then.
 */
export function startNode(
  name,
  args,
  { env = {}, cwd = root, ready, timeoutMs = 60_000, nodeArgs = [] },
) {
  const started = performance.now()
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const server = { name, child, pid: child.pid, port: 0, started, tail: '' }
  running.add(server)
  child.on('exit', () => running.delete(server))
  let head = ''
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer)
      stopServer(server)
      reject(new Error(`${name} ${why}\n${head}${server.tail}`))
    }
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs)
    const keep = (chunk) => {
      server.tail = (server.tail + chunk).slice(-2000)
    }
    child.stderr.setEncoding('utf8').on('data', keep)
    child.stdout.setEncoding('utf8')
    const onData = (chunk) => {
      head += chunk
      const port = ready(head)
      if (!port) return
      child.stdout.off('data', onData)
      // From here on, drain the request log as fast as it comes, as a pipe reader would.
      child.stdout.on('data', keep)
      clearTimeout(timer)
      server.port = port
      server.url = `http://127.0.0.1:${port}`
      server.head = head
      child.off('exit', onEarlyExit)
      resolve(server)
    }
    const onEarlyExit = (code, signal) => fail(`exited early (${signal ?? code})`)
    child.stdout.on('data', onData)
    child.on('exit', onEarlyExit)
  })
}

/**
 * Runs items-service from a copy of its build under `work`, so that every server of the run is
 * the same build even if the workspace is rebuilt meanwhile; its packages (lmdb) still resolve
 * from the workspace's node_modules.
 */
export async function snapshotItemsBuild(work) {
  const dir = join(work, 'items-service')
  await cp(itemsDist, join(dir, 'dist'), { recursive: true })
  await symlink(join(root, 'node_modules'), join(work, 'node_modules'), 'dir')
  itemsEntry = join(dir, 'dist', 'server.js')
}

/**
 * items-service as a user runs it: the built entry, embedded store in `dataDir`, defaults on;
 * `env` and `nodeArgs` added to its environment and to node's arguments.
 */
export function startItemsService(dataDir, { env = {}, nodeArgs = [] } = {}) {
  return startNode('items-service', [itemsEntry], {
    // Port 0 asks the OS for a free port; the start-up line tells which. Loopback only.
    // The feed's load comes from one address: the cap per client would refuse all but 20.
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EVENTS_MAX_STREAMS_PER_CLIENT: '1000000',
      ...env,
    },
    nodeArgs,
    ready: (out) => Number(/listening on http:\/\/[^:]+:(\d+)/.exec(out)?.[1]),
  })
}

/** The bare node:http bound, serving the documents in `documentsFile`; options as above. */
export function startReference(documentsFile, { env = {}, nodeArgs = [] } = {}) {
  return startNode('bound', [referenceEntry, documentsFile], {
    env,
    nodeArgs,
    ready: (out) => Number(/listening on (\d+)/.exec(out)?.[1]),
  })
}

/** json-server 0.17.4 as its README starts it, on `dbFile`, run in `dir` (no stray config). */
export async function startJsonServer(dbFile, dir) {
  const port = await freePort()
  const server = await startNode(
    'json-server',
    [jsonServerBin, dbFile, '--port', String(port), '--host', '127.0.0.1'],
    { cwd: dir, ready: (out) => (out.includes('Home') ? port : 0) },
  )
  return server
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** Sends SIGTERM, waits for the exit (SIGKILL after `graceMs`); resolves with exit code/signal. */
export function stopServer(server, graceMs = 10_000) {
  const { child } = server
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => killNow(server), graceMs)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal })
    })
    child.kill('SIGTERM')
  })
}

/** Stops every server still running. */
export async function stopAll() {
  await Promise.all([...running].map((server) => stopServer(server)))
}

/** Last resort on process exit: no child outlives the bench. */
export function killAllNow() {
  for (const server of running) killNow(server)
}

/** SIGKILL to a server, and to the runtime a Worker's process runs (its `pid`), which outlives it. */
function killNow({ child, pid }) {
  child.kill('SIGKILL')
  if (pid === child.pid) return
  try {
    process.kill(pid, 'SIGKILL')
  } catch {
    // Gone already.
  }
}

/** User and system CPU seconds the process has used so far. */
export function cpuTimes(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // utime and stime are fields 14 and 15 of the line, counted in clock ticks (100 per second).
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 }
}

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(pid) {
  const { user, system } = cpuTimes(pid)
  return user + system
}

/**
 * CPU milliseconds the process has run so far, every thread's, from the scheduler's count in
 * nanoseconds: the clock ticks `cpuSeconds` reads are too coarse to tell one answer's cost.
 */
export function cpuMilliseconds(pid) {
  let ns = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return ns / 1e6
}

/** CPU seconds the whole machine has spent busy so far (every core, from /proc/stat). */
export function machineBusySeconds() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
  // user nice system idle iowait irq softirq steal: all but idle and iowait are busy time.
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number)
  return (user + nice + system + irq + softirq + steal) / 100
}

/** Resident and peak resident memory of a process, in MiB, from /proc/<pid>/status. */
export function memoryMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN)
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 }
}

/**
 * Keep-alive connections for single requests, so that a timing leaves out the TCP handshake.
 * One left idle is dropped after 2 s: workerd closes a connection idle for 5 s (its HTTP server's
 * pipeline timeout) and announces no `Keep-Alive: timeout`, so a request written on one idle for
 * about that long met the close and ended in `socket hang up`.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 4, timeout: 2_000 })

/** Closes the idle connections of `send`, so that no socket keeps the bench alive. */
export function closeConnections() {
  agent.destroy()
}

/**
 * One HTTP request over a kept-alive connection; resolves with status, headers, body bytes and
 * the time from sending to the last byte, in ms.
 */
export function send(url, { method = 'GET', body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
    const started = performance.now()
    const req = request(
      url,
      {
        method,
        agent,
        headers: payload
          ? { ...headers, 'content-type': 'application/json', 'content-length': payload.length }
          : headers,
      },
      (res) => {
        let bytes = 0
        const chunks = []
        res.on('data', (chunk) => {
          bytes += chunk.length
          chunks.push(chunk)
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            bytes,
            body: () => Buffer.concat(chunks),
            ms: performance.now() - started,
            text: () => Buffer.concat(chunks).toString(),
          }),
        )
      },
    )
    req.setTimeout(120_000, () => req.destroy(new Error(`${method} ${url} timed out`)))
    req.on('error', reject)
    req.end(payload)
  })
}
