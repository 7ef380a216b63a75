// The built mail-service entry in outbox mode (embedded store in a fresh
// temporary DATA_DIR) takes 20,000 POST /sendmail, 16 at a time, each to its own address, twice:
// with the rate limits off, and with both counted in a one-hour window wide enough to admit every
// send (RATE_LIMIT_PER_KEY and RATE_LIMIT_PER_RECIPIENT at 999999/1h: one bucket that every send
// counts in, and one new bucket a send), the two side by side, a block at a time to each in turn.
// For each it prints the server's resident memory (VmRSS,
// and its anonymous and file-backed parts) and the sends a second after 0, 5,000, 10,000 and
// 20,000 logged sends, then the time of GET /maillog?limit=100; then the rate with limits over
// the rate without, block by block: a limit must cost the same whatever it has counted.
// It prints figures and asserts nothing.
//
//   node bench/investigations/mail-log.mjs [--sends 20000] [--concurrency 16]
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { stopServer } from '../servers.mjs'

const { values } = parseArgs({
  options: { sends: { type: 'string' }, concurrency: { type: 'string' } },
})
const sends = Number(values.sends ?? 20_000)
const concurrency = Number(values.concurrency ?? 16)
const checkpoints = [0, sends / 4, sends / 2, sends].map(Math.round)
const apiKey = 'bench-mail-api-key'
const entry = fileURLToPath(new URL('../../mail-service/dist/server.js', import.meta.url))

/** The two runs: the limits off, and both limits counting every send in an hour's window. */
const runs = [
  { name: 'limits off', limits: { RATE_LIMIT_PER_RECIPIENT: '0', RATE_LIMIT_PER_KEY: '0' } },
  {
    name: 'limits on (999999/1h each)',
    limits: { RATE_LIMIT_PER_RECIPIENT: '999999/1h', RATE_LIMIT_PER_KEY: '999999/1h' },
  },
]

/** The built entry with no setting but these; resolves once its banner names the port. */
function startMailService(dataDir, limits) {
  const child = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      API_KEYS: apiKey,
      ...limits,
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

/**
 * Both runs side by side, a block of sends at a time to each in turn (the order swapped every
 * block), so that a slow moment of the machine falls on both: the rows of each, and the reads of
 * the log after them.
 */
async function measureBoth() {
  const started = []
  for (const run of runs) {
    const dataDir = await mkdtemp(join(tmpdir(), 'maillog-bench-'))
    started.push({ ...run, dataDir, ...(await startMailService(dataDir, run.limits)) })
  }
  try {
    const rows = started.map(() => [])
    const statuses = started.map(() => new Map())
    let done = 0
    for (const checkpoint of checkpoints) {
      const seconds = started.map(() => 0)
      // Blocks of at most 1,000 sends, alternating which run goes first.
      for (let from = done, block = 0; from < checkpoint; from += 1_000, block += 1) {
        const to = Math.min(checkpoint, from + 1_000)
        const order = block % 2 === 0 ? [0, 1] : [1, 0]
        for (const index of order) {
          const begin = performance.now()
          await sendMany(started[index].url, from, to, statuses[index])
          seconds[index] += (performance.now() - begin) / 1000
        }
      }
      const sent = checkpoint - done
      started.forEach(({ child }, index) => {
        const perSecond = sent ? sent / seconds[index] : 0
        rows[index].push({ checkpoint, ...residentMiB(child.pid), perSecond })
      })
      done = checkpoint
    }
    for (const [index, { name, url }] of started.entries()) {
      const first = await timeList(url)
      const times = []
      for (let run = 0; run < 20; run++) times.push((await timeList(url)).ms)
      const median = times.toSorted((a, b) => a - b)[10]
      console.log(
        `mail-service (outbox mode, embedded store, ${name}), ${sends} POST /sendmail, ` +
          `${concurrency} at a time:`,
      )
      console.log(
        '| logged sends | VmRSS MiB | RssAnon MiB | RssFile MiB | sends/s since the row above |',
      )
      console.log('| --: | --: | --: | --: | --: |')
      for (const { checkpoint, rss, anon, file, perSecond } of rows[index]) {
        const rate = perSecond ? Math.round(perSecond) : '-'
        const mib = [rss, anon, file].map((value) => value.toFixed(1)).join(' | ')
        console.log(`| ${checkpoint} | ${mib} | ${rate} |`)
      }
      const answers = [...statuses[index]].map(([status, count]) => `${count} × ${status}`)
      console.log(`answers: ${answers.join(', ')}`)
      console.log(
        `GET /maillog?limit=100 after ${sends} sends: first ${first.ms.toFixed(1)} ms, ` +
          `median of 20 ${median.toFixed(1)} ms (status ${first.status}, ${first.count} records, ` +
          `Link ${first.link ? 'present' : 'absent'})\n`,
      )
    }
    return rows
  } finally {
    for (const { child, dataDir } of started) {
      await stopServer({ child })
      await rm(dataDir, { recursive: true, force: true })
    }
  }
}

const [off, on] = await measureBoth()
const ratios = on
  .slice(1)
  .map(({ checkpoint, perSecond }, index) => {
    const without = off[index + 1]?.perSecond ?? 0
    return `${checkpoint}: ${(perSecond / without).toFixed(2)}x`
  })
  .join(', ')
const total = (rows) => {
  const seconds = rows.slice(1).reduce((sum, row, index) => {
    const sent = row.checkpoint - (rows[index]?.checkpoint ?? 0)
    return sum + sent / row.perSecond
  }, 0)
  return sends / seconds
}
console.log(
  `sends/s with limits over without, by block (up to the logged sends named): ${ratios}; ` +
    `over all ${sends}: ${(total(on) / total(off)).toFixed(2)}x ` +
    `(${Math.round(total(on))} against ${Math.round(total(off))})`,
)
