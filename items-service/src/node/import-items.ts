import { resolve } from 'node:path'
import { redactText } from '@movies-and-mail/http-kit/redact'
import { parseEnv, secretValues } from '../env.js'
import { type Item, listBytes } from '../store/item-store.js'
import { type LineProblem, readItemsFile } from './items-file.js'
import { openItemStore } from './open-item-store.js'

// `npm run import -w items-service -- <file> [--replace]`: an items file (as `npm run export`
// writes it) into the store the settings select, `_id`s and order kept. An item whose id the
// store has is skipped (`--replace`: put in its place), so a run again is safe. A file with a
// bad line is refused whole, before anything is stored.

const shownProblems = 20

/** Says why nothing was imported; the caller ends, closing what it opened. */
function refuse(problems: LineProblem[], path: string): void {
  for (const { line, message } of problems.slice(0, shownProblems)) {
    process.stderr.write(`${path}:${line}: ${message}\n`)
  }
  if (problems.length > shownProblems) {
    process.stderr.write(`… and ${problems.length - shownProblems} more\n`)
  }
  process.stderr.write(`nothing was imported: ${problems.length} bad line(s)\n`)
  process.exitCode = 1
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const replace = args.includes('--replace')
  const files = args.filter((arg) => arg !== '--replace')
  if (files.length !== 1 || files[0]?.startsWith('-')) {
    process.stderr.write('usage: npm run import -w items-service -- <file> [--replace]\n')
    process.exit(2)
  }
  // npm runs the script in the micro's folder; a relative path is meant from where npm was run.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), files[0] as string)
  const read = await readItemsFile(path, (lines) => process.stderr.write(`read ${lines} lines\n`))
  if ('problems' in read) return refuse(read.problems, path)
  const settings = parseEnv(process.env)
  const { store, description } = await openItemStore(settings)
  try {
    // An `_id` the store gives another id would make two items one: refused, nothing stored.
    const stored = JSON.parse(
      new TextDecoder().decode(await listBytes(await store.list())),
    ) as Item[]
    const idOf_id = new Map(stored.map((item) => [item._id, item.id]))
    const taken = read.items.flatMap((item, index) => {
      const holder = idOf_id.get(item._id)
      return holder === undefined || holder === item.id
        ? []
        : [
            {
              line: read.lines[index] as number,
              message: `_id ${item._id} is item '${holder}''s in the store`,
            },
          ]
    })
    // Returned through `finally`: the store is closed as after an import.
    if (taken.length > 0) return refuse(taken, path)
    process.stderr.write(`importing ${read.items.length} items into the ${description}\n`)
    const { added, replaced, skipped } = await store.restore(read.items, { replace })
    const skippedNote = skipped > 0 ? ` (their ids were there; --replace puts them in place)` : ''
    process.stderr.write(
      `imported ${added} new, ${replaced} replaced, ${skipped} skipped${skippedNote}\n`,
    )
  } finally {
    await store.close()
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  process.stderr.write(`${redactText(`import failed: ${message}`, secretValues(process.env))}\n`)
  process.exit(1)
})
