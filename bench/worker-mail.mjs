// mail-service's Worker on the Workers runtime, for npm run bench, measured as items-service's
// is (worker-bench.mjs): `POST /sendmail` in outbox mode loaded beside the bare mail Worker (every
// send to one Durable Object that writes one row), then the first answer of a new isolate, and
// the size of the module wrangler uploads.
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { monotonicMs } from './clock.mjs'
import { load } from './load.mjs'
import { send, stopAll, stopServer } from './servers.mjs'
import {
  bareMailWorker,
  mailKey,
  mailWorker,
  startTimes,
  startWorker,
  summariseStarts,
} from './worker-servers.mjs'

/** The two mail Workers in table order. */
export const mailLabels = { mail: 'mail-service', bare: 'bare mail Worker' }

const sendmail = (n) => ({
  method: 'POST',
  path: '/sendmail',
  headers: { 'x-apikey': mailKey },
  body: { email: `reader${n}@example.com`, name: `Reader ${n}` },
})

/** Measures the above: `script` is the snapshot of mail-service's worker.js. */
export async function measureMailWorkers({ work, script, options, say }) {
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
