// The kit's cors() against hono's cors() with the same policy, each behind
// the kit's request log on @hono/node-server, answering the same 80-byte JSON. Alternating runs
// of autocannon (50 connections); prints req/s and the server's CPU time per answer.
//
//   node bench/investigations/cors.mjs [--seconds 4] [--rounds 3]
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { build } from 'esbuild'
import { cpuSeconds } from '../servers.mjs'

const { values } = parseArgs({
  options: { seconds: { type: 'string' }, rounds: { type: 'string' } },
})
const seconds = Number(values.seconds ?? 4)
const rounds = Number(values.rounds ?? 3)

const work = await mkdtemp(join(tmpdir(), 'cors-bench-'))
const bundle = join(work, 'cors-server.mjs')
await build({
  entryPoints: [fileURLToPath(new URL('cors-server.ts', import.meta.url))],
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

const servers = [await start('kit'), await start('hono')]
const results = new Map(servers.map(({ mode }) => [mode, []]))
try {
  for (const server of servers) await autocannon({ url: server.url, connections: 50, duration: 1 })
  for (let round = 1; round <= rounds; round++) {
    for (const server of servers) {
      const before = cpuSeconds(server.child.pid)
      const run = await autocannon({ url: server.url, connections: 50, duration: seconds })
      const cpu = cpuSeconds(server.child.pid) - before
      const answer = await fetch(server.url, { headers: { origin: 'https://app.example' } })
      if (answer.headers.get('access-control-allow-origin') !== '*') throw new Error('no CORS')
      results.get(server.mode).push({
        perSecond: run.requests.average,
        microsPerAnswer: (cpu * 1e6) / run.requests.total,
      })
    }
  }
} finally {
  for (const { child } of servers) child.kill()
  await rm(work, { recursive: true, force: true })
}

const median = (list) => list.toSorted((a, b) => a - b)[Math.floor(list.length / 2)]
const row = (mode) => {
  const runs = results.get(mode)
  return {
    perSecond: median(runs.map((run) => run.perSecond)),
    micros: median(runs.map((run) => run.microsPerAnswer)),
  }
}
const kit = row('kit')
const hono = row('hono')
console.log(`cors() behind the request log, median of ${rounds} runs of ${seconds} s:`)
console.log('| cors | req/s | server CPU µs per answer |')
console.log('| --- | --: | --: |')
console.log(`| kit | ${Math.round(kit.perSecond)} | ${kit.micros.toFixed(1)} |`)
console.log(`| hono | ${Math.round(hono.perSecond)} | ${hono.micros.toFixed(1)} |`)
console.log(`hono/kit by CPU per answer: ${(hono.micros / kit.micros).toFixed(2)}x`)
