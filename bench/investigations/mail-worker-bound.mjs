// mail-service's Worker on the Workers runtime beside the bare mail Worker (workers/bare-mail-worker.mjs:
// every send to one Durable Object that writes one row): `POST /sendmail` in outbox mode, loaded as
// `npm run bench` loads items-service's Worker, then the first answer of a new isolate and the
// size of the module wrangler uploads. Prints one table; asserts nothing.
//
//   npm run build -w mail-service && node bench/investigations/mail-worker-bound.mjs
//     [--seconds 5] [--rounds 2]
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { monotonicMs } from '../clock.mjs'
import { cpuPerAnswer, fixed, ratio } from '../format.mjs'
import { connections, load } from '../load.mjs'
import { bestOf } from '../report.mjs'
import { send, stopAll, stopServer } from '../servers.mjs'
import { startTimes, startWorker, summariseStarts } from '../worker-servers.mjs'

/** The two mail Workers in table order. */
const mailLabels = { mail: 'mail-service', bare: 'bare mail Worker' }

const sendmail = (n) => ({
  method: 'POST',
  path: '/sendmail',
  headers: { 'x-apikey': mailKey },
  body: { email: `reader${n}@example.com`, name: `Reader ${n}` },
})

/** Measures the above: `script` is the snapshot of mail-service's worker.js. */
async function measureMailWorkers({ work, script, options, say }) {
  const dir = join(work, 'mail-workers')
  await mkdir(dir, { recursive: true })
  let starts = 0
  const start = {
    mail: () =>
      startWorker('mail-service Worker', mailWorker(script, join(dir, `s${++starts}`)), dir),
    bare: () => startWorker('bare mail Worker', bareMailWorker(join(dir, `s${++starts}`)), dir),
  }
  const sends = Array.from({ length: 200 }, (_, n) => sendmail(n))
  const runs = []
  for (let round = 1; round <= options.rounds; round++) {
    say(`round ${round}: the mail Workers`)
    for (const [key, begin] of Object.entries(start)) {
      const server = await begin()
      await load(server, { cycle: sends, seconds: options.warmup, expect: 201 })
      const run = await load(server, { cycle: sends, seconds: options.seconds, expect: 201 })
      runs.push({ round, endpoint: 'POST /sendmail', n: 0, key, label: mailLabels[key], ...run })
      say(`  POST /sendmail ${mailLabels[key]}: ${run.rps.toFixed(0)} req/s, p99 ${run.p99} ms`)
      await stopServer(server)
    }
  }
  await stopAll()

  say('workers: the first send to a new mail isolate')
  const cold = { tries: options.coldTries, mail: [], bare: [] }
  for (let i = 0; i < options.coldTries; i++) {
    for (const key of ['mail', 'bare']) cold[key].push(await firstSend(await start[key]()))
  }
  const module = await readFile(script)
  return {
    runs,
    cold: { ...cold, mail: summariseStarts(cold.mail), bare: summariseStarts(cold.bare) },
    size: { raw: module.length, gzip: gzipSync(module).length },
  }
}

/** The start's times (`startTimes`) up to the 201 of one send. Stops the Worker. */
async function firstSend(server) {
  const { method, path, headers, body } = sendmail(0)
  const answer = await send(`${server.url}${path}`, { method, headers, body })
  const at = monotonicMs()
  await stopServer(server)
  if (answer.status !== 201) throw new Error(`${server.name}: ${answer.status} ${answer.text()}`)
  return startTimes(server, at)
}

const mailWorkerScript = fileURLToPath(
  new URL('../../mail-service/dist/worker.js', import.meta.url),
)
const workers = fileURLToPath(new URL('workers/', import.meta.url))

/** The key the mail Workers of the bench take, and the settings of mail-service's. */
const mailKey = 'bench-mail-api-key'

/**
 * mail-service's Worker in outbox mode, its state object's storage in `persist`, the rate
 * limits off (every send of the bench goes to one address), and no Node compatibility, as its
 * wrangler.toml has none.
 */
const mailWorker = (script, persist) => ({
  script,
  modulesRoot: dirname(script),
  compatibilityFlags: [],
  durableObjects: { MAIL_STATE: { className: 'MailStateObject', useSQLite: true } },
  persist,
  bindings: {
    API_KEYS: mailKey,
    MAIL_TRANSPORT: 'outbox',
    RATE_LIMIT_PER_RECIPIENT: '0',
    RATE_LIMIT_PER_KEY: '0',
  },
})

/** The bare mail Worker: every send to one object, which writes one row (bare-mail-worker.mjs). */
const bareMailWorker = (persist) => ({
  script: join(workers, 'bare-mail-worker.mjs'),
  modulesRoot: workers,
  compatibilityFlags: [],
  durableObjects: { MAIL_STATE: { className: 'MailLogObject', useSQLite: true } },
  persist,
})

/** Copies mail-service's Worker (`dist/worker.js`, one module) under `work`; its path. */
async function snapshotMailWorker(work) {
  if (!existsSync(mailWorkerScript))
    throw new Error(`${mailWorkerScript}: build mail-service first`)
  const dir = join(work, 'mail-worker')
  await mkdir(dir, { recursive: true })
  await copyFile(mailWorkerScript, join(dir, 'worker.js'))
  return join(dir, 'worker.js')
}

const mib = (bytes) => `${fixed(bytes / 1048576, 2)} MiB`

/** The lines of mail-service's Worker against the bare mail Worker. */
function mailReport(mail, options) {
  const best = bestOf(mail.runs.map((run) => ({ ...run, server: run.key })))
  const at = (key) => best.get(`POST /sendmail|0|${key}`)
  const lines = ["### mail-service's Worker", '']
  lines.push(
    "mail-service's Worker (`mail-service/dist/worker.js`, as `wrangler deploy` uploads it) in outbox mode, " +
      'its state in its Durable Object (SQLite storage), the rate limits off, against the bare mail Worker ' +
      '(`bench/investigations/workers/bare-mail-worker.mjs`: every send to one Durable Object, which writes one row and answers ' +
      `201). \`POST /sendmail\` with the key, ${options.connections} connections, best of ${options.rounds}; each ` +
      'run on a fresh object.',
  )
  lines.push('')
  lines.push(
    '| endpoint | ours req/s | ours p50 / p99 ms | bare req/s | bare p50 / p99 ms | non-2xx ours/bare | errors ours/bare | ours/bare | ours/bare by CPU |',
  )
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|')
  const [mine, bare] = [at('mail'), at('bare')]
  if (mine && bare) {
    const times = (run) => `${fixed(run.p50, 1)} / ${fixed(run.p99, 1)}`
    lines.push(
      `| POST /sendmail | ${fixed(mine.rps)} | ${times(mine)} | ${fixed(bare.rps)} | ${times(bare)} | ${mine.non2xx} / ${bare.non2xx} | ${mine.errors} / ${bare.errors} | ${ratio(mine.rps / bare.rps)} | ${ratio(cpuPerAnswer(bare) / cpuPerAnswer(mine))} |`,
    )
  }
  lines.push('')
  const { cold, size } = mail
  lines.push('| measure | ours | bare mail Worker | ours/bare |')
  lines.push('|---|--:|--:|--:|')
  lines.push(
    `| first send to a new isolate: workerd's start (its spawn) to the 201 of POST /sendmail (median of ${cold.tries}) | ${fixed(cold.mail.total)} ms | ${fixed(cold.bare.total)} ms | ${ratio(cold.mail.total / cold.bare.total)} |`,
  )
  lines.push(
    `| of which, from workerd ready to that 201 (the app and the object start, the send) | ${fixed(cold.mail.first, 1)} ms | ${fixed(cold.bare.first, 1)} ms | |`,
  )
  lines.push(
    `| before that start, Miniflare's own work (it encodes the configuration, the module in it) | ${fixed(cold.mail.miniflare)} ms | ${fixed(cold.bare.miniflare)} ms | |`,
  )
  lines.push(
    `| the module wrangler uploads, raw / gzip | ${mib(size.raw)} / ${mib(size.gzip)} | | |`,
  )
  lines.push('')
  return lines
}

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '2' } },
})
const seconds = Number(values.seconds)
const options = {
  seconds,
  warmup: Math.min(1, seconds),
  rounds: Number(values.rounds),
  coldTries: 5,
  connections,
}
const say = (line) => process.stderr.write(`${line}\n`)
const work = await mkdtemp(join(tmpdir(), 'mail-worker-bound-'))
try {
  const script = await snapshotMailWorker(work)
  console.log(
    mailReport(await measureMailWorkers({ work, script, options, say }), options).join('\n'),
  )
} finally {
  await stopAll()
  await rm(work, { recursive: true, force: true })
}
