import { resolve } from 'node:path'
import { redactText } from '@movies-and-mail/http-kit/redact'
import { parseEnv, secretValues } from '../env.js'
import { listBytes } from '../store/item-store.js'
import { writeItemsFile } from './items-file.js'
import { openItemStore } from './open-item-store.js'

// `npm run export -w items-service -- <file>`: the store the settings select (the embedded one
// in DATA_DIR, or MongoDB at CONNECTION_URL) as an items file, one item a line in list order.

async function main(): Promise<void> {
  const [target, ...rest] = process.argv.slice(2)
  if (target === undefined || rest.length > 0) {
    process.stderr.write('usage: npm run export -w items-service -- <file>\n')
    process.exit(2)
  }
  // npm runs the script in the micro's folder; a relative path is meant from where npm was run.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), target)
  const settings = parseEnv(process.env)
  const { store, description } = await openItemStore(settings)
  try {
    const count = await writeItemsFile(path, await listBytes(await store.list()))
    process.stderr.write(`exported ${count} items from the ${description} to ${path}\n`)
  } finally {
    await store.close()
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  process.stderr.write(`${redactText(`export failed: ${message}`, secretValues(process.env))}\n`)
  process.exit(1)
})
