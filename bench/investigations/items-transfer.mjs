// items-service's `npm run import` and `npm run export` (the built
// commands, dist/import-items.js and dist/export-items.js) on the embedded store: 100,000 movies
// read from NDJSON into a fresh DATA_DIR, then written back out, then imported again (every id
// there: all skipped). Prints seconds and items a second for each; asserts nothing.
//
//   node bench/investigations/items-transfer.mjs [--items 100000]
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, promisify } from 'node:util'
import { documents, movies } from '../movies.mjs'

const run = promisify(execFile)
const { values } = parseArgs({ options: { items: { type: 'string' } } })
const count = Number(values.items ?? 100_000)
const service = fileURLToPath(new URL('../../items-service/', import.meta.url))

/** Runs a built command on `dataDir`; its seconds and the last line it printed. */
async function timed(command, args, dataDir) {
  const started = performance.now()
  const { stderr } = await run(process.execPath, [`dist/${command}.js`, ...args], {
    cwd: service,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir },
    maxBuffer: 16 * 1024 * 1024,
  })
  const seconds = (performance.now() - started) / 1000
  return { seconds, said: stderr.trim().split('\n').at(-1) }
}

const work = await mkdtemp(join(tmpdir(), 'items-transfer-'))
try {
  const source = join(work, 'movies.ndjson')
  const lines = documents(movies(count)).map((item) => JSON.stringify(item))
  await writeFile(source, `${lines.join('\n')}\n`)
  const dataDir = join(work, 'data')
  const imported = await timed('import-items', [source], dataDir)
  const exportedFile = join(work, 'exported.ndjson')
  const exported = await timed('export-items', [exportedFile], dataDir)
  const again = await timed('import-items', [source], dataDir)
  const same = (await readFile(exportedFile, 'utf8')) === `${lines.join('\n')}\n`
  const mib = (await stat(source)).size / 1024 / 1024
  console.log(`items-service, embedded store, ${count} items (${mib.toFixed(1)} MiB of NDJSON):`)
  console.log('| command | seconds | items/s | what it said |')
  console.log('| --- | --: | --: | --- |')
  for (const [name, result] of [
    ['import into a fresh DATA_DIR', imported],
    ['export', exported],
    ['import again (every id there)', again],
  ]) {
    const rate = Math.round(count / result.seconds)
    console.log(`| ${name} | ${result.seconds.toFixed(2)} | ${rate} | ${result.said} |`)
  }
  console.log(`the export is the file imported, byte for byte: ${same ? 'yes' : 'no'}`)
} finally {
  await rm(work, { recursive: true, force: true })
}
