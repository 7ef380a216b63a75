// The kit's cors() against hono's cors() as hono 4.13 has it, the same policy, each behind the
// kit's request log on @hono/node-server: a read of one 80-byte JSON item with `Origin`, and a
// preflight. Alternating runs of autocannon (50 connections); req/s and server CPU µs a request.
//
//   node bench/investigations/cors-again/cors-again.mjs [--seconds 4] [--rounds 3]
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { build } from 'esbuild'

const { values } = parseArgs({
  options: { seconds: { type: 'string' }, rounds: { type: 'string' } },
})
const seconds = Number(values.seconds ?? 4)
const rounds = Number(values.rounds ?? 3)

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const work = await mkdtemp(join(tmpdir(), 'cors-again-'))
const bundle = join(work, 'server.mjs')
await build({
  entryPoints: [fileURLToPath(new URL('server.ts', import.meta.url))],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'warning',
})

function start(mode) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, mode], { stdio: ['ignore', 'pipe', 'inherit'] })
    child.once('exit', (code) => reject(new Error(`${mode} server exited (${code})`)))
    child.stdout.setEncoding('utf8').on('data', (text) => {
      const port = /listening on (\d+)/.exec(text)?.[1]
      if (port) resolve({ mode, child, url: `http://127.0.0.1:${port}/item` })
    })
  })
}

const kinds = {
  read: { headers: { origin: 'https://app.example' } },
  preflight: {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT' },
  },
}
const servers = [await start('kit'), await start('hono')]
const results = new Map()
try {
  for (const server of servers) await autocannon({ url: server.url, connections: 50, duration: 1 })
  for (let round = 1; round <= rounds; round++) {
    for (const [kind, request] of Object.entries(kinds)) {
      for (const server of servers) {
        const before = cpuSeconds(server.child.pid)
        const run = await autocannon({
          url: server.url,
          connections: 50,
          duration: seconds,
          ...request,
        })
        const cpu = cpuSeconds(server.child.pid) - before
        const key = `${kind} ${server.mode}`
        if (!results.has(key)) results.set(key, [])
        results.get(key).push({
          perSecond: run.requests.average,
          micros: (cpu * 1e6) / run.requests.total,
          non2xx: run.non2xx,
        })
      }
    }
  }
} finally {
  for (const { child } of servers) child.kill()
  await rm(work, { recursive: true, force: true })
}
const median = (list) => list.toSorted((a, b) => a - b)[Math.floor(list.length / 2)]
console.log(`median of ${rounds} alternating runs of ${seconds} s, 50 connections:`)
console.log('| request | cors | req/s | server CPU µs a request |')
console.log('| --- | --- | --: | --: |')
for (const [key, runs] of results) {
  const [kind, mode] = key.split(' ')
  console.log(
    `| ${kind} | ${mode} | ${Math.round(median(runs.map((r) => r.perSecond)))} | ${median(runs.map((r) => r.micros)).toFixed(1)} |`,
  )
}
