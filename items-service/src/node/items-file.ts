import { createReadStream } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { parseStrictJson } from '@movies-and-mail/http-kit/app'
import { describeIssues } from '@movies-and-mail/http-kit/routes'
import { findReservedFieldNames, itemSchema } from '../items/item.schema.js'
import type { Item } from '../store/item-store.js'

// The file `npm run export` writes and `npm run import` reads: NDJSON, one item a line as the
// list answers it, `_id` included, in list order.

/** A line the import refuses, by its number (from 1). */
export type LineProblem = { line: number; message: string }

const encoder = new TextEncoder()

/** Why one line cannot be an item, or the item. */
function itemOf(text: string): Item | string {
  // Checked as a write's body is: a lone surrogate, a number out of range, a name twice.
  const parsed = parseStrictJson(encoder.encode(text))
  if (!parsed.ok && parsed.syntax) return 'not JSON'
  const value = parsed.ok ? parsed.value : {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'not a JSON object'
  }
  const { _id, _owner, ...fields } = value as Record<string, unknown>
  // What a write through the API takes, and an `_id` and an `_owner` (`itemSchema` checks
  // them); an item of id `events`, which a write may no longer give, may have been stored before.
  const issues = [
    ...(parsed.ok ? [] : parsed.issues),
    ...findReservedFieldNames(fields).map(({ path, message }) => ({
      path: path.join('.'),
      message,
    })),
  ]
  if (issues.length === 0) {
    const parsed = itemSchema.safeParse(value)
    if (!parsed.success) issues.push(...describeIssues(parsed.error.issues))
  }
  if (issues.length > 0) {
    return issues.map(({ path, message }) => (path ? `${path}: ${message}` : message)).join('; ')
  }
  return { _id, ...(_owner !== undefined && { _owner }), ...fields } as Item
}

/**
 * Reads an items file whole, checking every line (blank ones are skipped): the items and the line
 * of each, or every problem by its line, the same `id` or `_id` twice included. `progress` hears how many lines
 * were read, every 10,000.
 */
export async function readItemsFile(
  path: string,
  progress: (lines: number) => void = () => {},
): Promise<{ items: Item[]; lines: number[] } | { problems: LineProblem[] }> {
  const items: Item[] = []
  /** The line of each item. */
  const itemLines: number[] = []
  const problems: LineProblem[] = []
  const lineOfId = new Map<string, number>()
  const lineOf_id = new Map<string, number>()
  let line = 0
  const lines = createInterface({
    input: createReadStream(path),
    crlfDelay: Number.POSITIVE_INFINITY,
  })
  for await (const text of lines) {
    line += 1
    if (line % 10_000 === 0) progress(line)
    if (text.trim() === '') continue
    const item = itemOf(text)
    if (typeof item === 'string') {
      problems.push({ line, message: item })
      continue
    }
    const sameId = lineOfId.get(item.id)
    const same_id = lineOf_id.get(item._id)
    if (sameId !== undefined)
      problems.push({ line, message: `id '${item.id}' is on line ${sameId} too` })
    else if (same_id !== undefined) {
      problems.push({ line, message: `_id ${item._id} is on line ${same_id} too` })
    } else {
      lineOfId.set(item.id, line)
      lineOf_id.set(item._id, line)
      items.push(item)
      itemLines.push(line)
    }
  }
  return problems.length > 0 ? { problems } : { items, lines: itemLines }
}

/**
 * Writes `list` (a JSON array, as a store's list answers it) as an items file: one item a line.
 * The file appears whole or not at all: it is written beside, synced, then renamed into place.
 * It is its owner's alone (mode 0600), as the store it comes from is.
 * @returns how many items it holds
 */
export async function writeItemsFile(path: string, list: Uint8Array): Promise<number> {
  const items = JSON.parse(new TextDecoder().decode(list)) as unknown[]
  const partial = `${path}.partial`
  const file = await open(partial, 'w', 0o600)
  try {
    // Set whatever the umask, and on a partial file a cut-short export left behind.
    await file.chmod(0o600)
    const chunk: string[] = []
    for (const item of items) {
      chunk.push(JSON.stringify(item))
      if (chunk.length === 1000) await file.write(`${chunk.splice(0).join('\n')}\n`)
    }
    if (chunk.length > 0) await file.write(`${chunk.join('\n')}\n`)
    await file.sync()
  } catch (error) {
    await file.close()
    await rm(partial, { force: true })
    throw error
  }
  await file.close()
  await rename(partial, path)
  return items.length
}
