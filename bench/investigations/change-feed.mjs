// What a follower of the change feed costs: items-service and the bound on Node, each alone
// holding n movies, with `--streams` idle streams on GET /items/events opened from a child
// process (feed-client.mjs), then `--mutations` PUTs; memory per idle stream and the time from a
// PUT sent to the event read on every stream (feed.mjs). Prints one table; asserts nothing.
//
//   npm run build -w items-service && node bench/investigations/change-feed.mjs
//     [--n 1000] [--streams 1000] [--mutations 50]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { prepare } from '../fixtures.mjs'
import { count, fixed, ratio } from '../format.mjs'
import { movies } from '../movies.mjs'
import { snapshotItemsBuild, stopAll } from '../servers.mjs'
import { measureFeeds } from './feed.mjs'

const kib = (value) => `${fixed(value, 1)} KiB`
const mib = (kibs) => `${fixed(kibs / 1024, 1)} MiB`

function feedRows(feed) {
  const { items, bound } = feed
  const both = (show) => [items, bound].map((side) => (side.missing ? 'n/a' : show(side)))
  const perStream = (side, field) => (side.after[field] - side.before[field]) / side.streams
  const row = (measure, show, compare) => {
    const cells = both(show)
    const share =
      items.missing || bound.missing || !compare ? '' : ratio(compare(items) / compare(bound))
    return `| ${measure} | ${cells.join(' | ')} | ${share} |`
  }
  const side = items.missing ? bound : items
  return [
    '| measure | ours | bound | ours/bound |',
    '|---|--:|--:|--:|',
    row(
      'streams opened, 50 handshakes at a time (of them, first block with an `id:` line)',
      (s) =>
        `${count(s.opened.streams)} in ${fixed(s.opened.ms / 1000, 2)} s (${count(s.opened.startWithId)})`,
    ),
    row('RSS (VmRSS) before the streams', (s) => mib(s.before.rss)),
    row(`RSS with ${count(side.streams)} idle streams`, (s) => mib(s.after.rss)),
    row(
      '**RSS per idle stream**',
      (s) => kib(perStream(s, 'rss')),
      (s) => perStream(s, 'rss'),
    ),
    row(
      'heap used after a full GC, before → with the streams',
      (s) => `${mib(s.before.heapUsed)} → ${mib(s.after.heapUsed)}`,
    ),
    row(
      '**heap per idle stream** (after a full GC)',
      (s) => kib(perStream(s, 'heapUsed')),
      (s) => perStream(s, 'heapUsed'),
    ),
    row(
      `**delivery**, PUT sent → event read on a stream, p50 / p99 / max over (stream, event) pairs`,
      (s) => `${fixed(s.p50, 1)} / ${fixed(s.p99, 1)} / ${fixed(s.max, 1)} ms`,
      (s) => s.p99,
    ),
    row(
      'PUT sent → the last stream has the event, median over the PUTs',
      (s) => `${fixed(s.allReachedP50, 1)} ms`,
      (s) => s.allReachedP50,
    ),
    row(
      `CPU per PUT while ${count(side.streams)} streams follow: server (the PUT and its event) / feed client`,
      (s) => `${fixed(s.serverCpuPerPutMs, 1)} / ${fixed(s.clientCpuPerPutMs, 1)} ms`,
      (s) => s.serverCpuPerPutMs,
    ),
    row(
      '(stream, event) pairs: measured / absent / not the PUT’s item; streams closed early',
      (s) => `${count(s.pairs)} / ${s.absent} / ${s.wrong}; ${s.closed}`,
    ),
  ]
}

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1000' },
    streams: { type: 'string', default: '1000' },
    mutations: { type: 'string', default: '50' },
  },
})
const options = {
  streams: Number(values.streams),
  mutations: Number(values.mutations),
  gapMs: 50,
}
const say = (line) => process.stderr.write(`${line}\n`)
const work = await mkdtemp(join(tmpdir(), 'change-feed-'))
try {
  await snapshotItemsBuild(work)
  const base = movies(Number(values.n))
  const files = await prepare(work, base)
  const ids = base.map((item) => item.id)
  const feed = await measureFeeds({ work, files, ids, options, say })
  for (const [key, side] of Object.entries(feed))
    if (side.missing) say(`${key} not measured: ${side.missing}`)
  console.log(
    `The change feed: ${count(options.streams)} streams on GET /items/events, ${count(base.length)} movies\n`,
  )
  console.log(feedRows(feed).join('\n'))
} finally {
  await stopAll()
  await rm(work, { recursive: true, force: true })
}
