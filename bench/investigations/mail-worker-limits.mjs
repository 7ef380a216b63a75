// mail-service's Worker (dist/worker.js) under Miniflare, in outbox
// mode, its state in its Durable Object's SQLite storage (a fresh folder): 2,000 POST /sendmail,
// 16 at a time, each to its own address, with the rate limits off and on (999999/1h each), sent
// with dispatchFetch (what is measured is the Worker and its object, with Miniflare's own
// routing in front). Prints sends a second and the ratio; asserts nothing.
//
//   node bench/investigations/mail-worker-limits.mjs [--sends 2000] [--concurrency 16]
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { Miniflare } from 'miniflare'

const { values } = parseArgs({
  options: { sends: { type: 'string' }, concurrency: { type: 'string' } },
})
const sends = Number(values.sends ?? 2_000)
const concurrency = Number(values.concurrency ?? 16)
const mail = fileURLToPath(new URL('../../mail-service/', import.meta.url))
const compatibilityDate = /^compatibility_date = "([\d-]+)"/m.exec(
  readFileSync(join(mail, 'wrangler.toml'), 'utf8'),
)?.[1]

async function measure(limits) {
  const persist = await mkdtemp(join(tmpdir(), 'mail-worker-bench-'))
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(mail, 'dist/worker.js'),
    compatibilityDate,
    durableObjects: { MAIL_STATE: { className: 'MailStateObject', useSQLite: true } },
    durableObjectsPersist: persist,
    bindings: { API_KEYS: 'bench-mail-api-key', MAIL_TRANSPORT: 'outbox', ...limits },
  })
  const send = (n) =>
    mf.dispatchFetch('http://worker.test/sendmail', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': 'bench-mail-api-key' },
      body: JSON.stringify({ email: `reader${n}@example.com`, name: `Reader ${n}` }),
    })
  try {
    await (await send(-1)).arrayBuffer() // the object's first call
    let next = 0
    const statuses = new Map()
    const started = performance.now()
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < sends) {
          const response = await send(next++)
          await response.arrayBuffer()
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        }
      }),
    )
    const perSecond = sends / ((performance.now() - started) / 1000)
    return { perSecond, statuses }
  } finally {
    await mf.dispose()
    await rm(persist, { recursive: true, force: true })
  }
}

const off = await measure({ RATE_LIMIT_PER_RECIPIENT: '0', RATE_LIMIT_PER_KEY: '0' })
const on = await measure({ RATE_LIMIT_PER_RECIPIENT: '999999/1h', RATE_LIMIT_PER_KEY: '999999/1h' })
const answers = ({ statuses }) => [...statuses].map(([s, c]) => `${c} × ${s}`).join(', ')
console.log(
  `mail-service's Worker under Miniflare, state in its Durable Object, ${sends} sends, ${concurrency} at a time:`,
)
console.log(`limits off: ${Math.round(off.perSecond)} sends/s (${answers(off)})`)
console.log(`limits on:  ${Math.round(on.perSecond)} sends/s (${answers(on)})`)
console.log(`with limits over without: ${(on.perSecond / off.perSecond).toFixed(2)}x`)
