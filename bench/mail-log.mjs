// npm run bench:maillog: the built mail-service entry in outbox mode (embedded store in a fresh
// temporary DATA_DIR, rate limits off) takes 20,000 POST /sendmail, 16 at a time, each to its own
// address; prints the server's resident memory (VmRSS, and its anonymous and file-backed parts)
// after 0, 5,000, 10,000 and 20,000 logged sends, then the time of GET /maillog?limit=100.
// It prints figures and asserts nothing.
//
//   node bench/mail-log.mjs [--sends 20000] [--concurrency 16]
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { stopServer } from './servers.mjs'

const { values } = parseArgs({
  options: { sends: { type: 'string' }, concurrency: { type: 'string' } },
})
const sends = Number(values.sends ?? 20_000)
const concurrency = Number(values.concurrency ?? 16)
const checkpoints = [0, sends / 4, sends / 2, sends].map(Math.round)
const apiKey = 'bench-key'
const entry = fileURLToPath(new URL('../mail-service/dist/server.js', import.meta.url))

/** The built entry with no setting but these; resolves once its banner names the port. */
function startMailService(dataDir) {
  const child = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      API_KEYS: apiKey,
      RATE_LIMIT_PER_RECIPIENT: '0',
      RATE_LIMIT_PER_KEY: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let head = ''
  let tail = ''
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`exited (${signal ?? code})\n${tail}`)))
    child.stderr.setEncoding('utf8').on('data', (text) => {
      tail = (tail + text).slice(-2000)
    })
    const onBanner = (text) => {
      head += text
      const port = /listening on http:\/\/[^:]+:(\d+)/.exec(head)?.[1]
      if (!port) return
      // From here on drained as a pipe reader would: one request line a send.
      child.stdout.off('data', onBanner).on('data', () => {})
      resolve({ child, url: `http://127.0.0.1:${port}` })
    }
    child.stdout.setEncoding('utf8').on('data', onBanner)
  })
}

/**
 * The process's resident memory in MiB (/proc/<pid>/status): VmRSS, and its parts RssAnon (the
 * heap and the rest of what the process allocated) and RssFile (pages of mapped files, the
 * store's among them, which the kernel can drop and read again).
 */
function residentMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const mib = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]) / 1024
  return { rss: mib('VmRSS'), anon: mib('RssAnon'), file: mib('RssFile') }
}

/** Sends POST /sendmail number `from` to `to - 1`, `concurrency` at a time; counts the statuses. */
async function sendMany(url, from, to, statuses) {
  let next = from
  const worker = async () => {
    while (next < to) {
      const n = next++
      const response = await fetch(`${url}/sendmail`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-apikey': apiKey },
        body: JSON.stringify({ email: `reader${n}@example.com`, name: `Reader ${n}` }),
      })
      await response.arrayBuffer()
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

async function timeList(url) {
  const started = performance.now()
  const response = await fetch(`${url}/maillog?limit=100`, { headers: { 'x-apikey': apiKey } })
  const records = await response.json()
  const ms = performance.now() - started
  return { ms, status: response.status, count: records.length, link: response.headers.get('link') }
}

const dataDir = await mkdtemp(join(tmpdir(), 'maillog-bench-'))
const { child, url } = await startMailService(dataDir)
const rows = []
const statuses = new Map()
try {
  let done = 0
  let started = performance.now()
  for (const checkpoint of checkpoints) {
    await sendMany(url, done, checkpoint, statuses)
    const seconds = (performance.now() - started) / 1000
    const sent = checkpoint - done
    rows.push({ checkpoint, ...residentMiB(child.pid), perSecond: sent ? sent / seconds : 0 })
    done = checkpoint
    started = performance.now()
  }
  const first = await timeList(url)
  const times = []
  for (let run = 0; run < 20; run++) times.push((await timeList(url)).ms)
  const median = times.toSorted((a, b) => a - b)[10]

  console.log(
    `mail-service (outbox mode, embedded store), ${sends} POST /sendmail, ${concurrency} at a time:`,
  )
  console.log(
    '| logged sends | VmRSS MiB | RssAnon MiB | RssFile MiB | sends/s since the row above |',
  )
  console.log('| --: | --: | --: | --: | --: |')
  for (const { checkpoint, rss, anon, file, perSecond } of rows) {
    const rate = perSecond ? Math.round(perSecond) : '-'
    const mib = [rss, anon, file].map((value) => value.toFixed(1)).join(' | ')
    console.log(`| ${checkpoint} | ${mib} | ${rate} |`)
  }
  console.log(
    `answers: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}`,
  )
  console.log(
    `GET /maillog?limit=100 after ${sends} sends: first ${first.ms.toFixed(1)} ms, ` +
      `median of 20 ${median.toFixed(1)} ms (status ${first.status}, ${first.count} records, ` +
      `Link ${first.link ? 'present' : 'absent'})`,
  )
} finally {
  await stopServer({ child })
  await rm(dataDir, { recursive: true, force: true })
}
