// The Markdown of mail-service's Worker in RESULTS.md (worker-mail.mjs measures it).
import { cpuPerAnswer, fixed, ratio } from './format.mjs'
import { bestOf } from './report.mjs'

const mib = (bytes) => `${fixed(bytes / 1048576, 2)} MiB`

/** The lines of mail-service's Worker against the bare mail Worker. */
export function mailReport(mail, options) {
  const best = bestOf(mail.runs.map((run) => ({ ...run, server: run.key })))
  const at = (key) => best.get(`POST /sendmail|0|${key}`)
  const lines = ["### mail-service's Worker", '']
  lines.push(
    "mail-service's Worker (`mail-service/dist/worker.js`, as `wrangler deploy` uploads it) in outbox mode, " +
      'its state in its Durable Object (SQLite storage), the rate limits off, against the bare mail Worker ' +
      '(`bench/workers/bare-mail-worker.mjs`: every send to one Durable Object, which writes one row and answers ' +
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
