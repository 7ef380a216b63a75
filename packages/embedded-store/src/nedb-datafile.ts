import { readFile } from 'node:fs/promises'
import { StoreDamagedError } from './storage-errors.js'

/** A document as NeDB kept it: any JSON object with a string `_id`. */
export type NedbDocument = Record<string, unknown> & { _id: string }

export type NedbDatafile = {
  /** The live documents, ordered by `_id`. */
  documents: NedbDocument[]
  /** Set when the last line was cut short by a crash while it was written (never acknowledged). */
  tornTail: boolean
}

/**
 * Reads a datafile of the NeDB store of earlier releases: one JSON document a line, where a
 * later line with the same `_id` replaces an earlier one, `{"$$deleted":true,"_id":…}` removes
 * it, and `$$indexCreated` lines describe indexes. A write reached the file as one line ending
 * in a newline before it was acknowledged, so a last line without its newline that does not
 * parse is a write cut short, never acknowledged, and is left out; any other line that does not
 * parse means the file was damaged, and nothing is guessed.
 * @returns null when there is no such file
 * @throws StoreDamagedError naming the file and the line
 */
export async function readNedbDatafile(file: string): Promise<NedbDatafile | null> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  const lines = text.split('\n')
  const live = new Map<string, NedbDocument>()
  let tornTail = false
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue
    const isLast = index === lines.length - 1
    const document = parseLine(line)
    if (document === undefined) {
      if (isLast) {
        tornTail = true
        continue
      }
      throw new StoreDamagedError(
        file,
        `line ${index + 1} is not a JSON document with an _id; mend or remove that line, then start again`,
      )
    }
    if ('$$indexCreated' in document || '$$indexRemoved' in document) continue
    if (document.$$deleted === true) live.delete(document._id)
    else live.set(document._id, document)
  }
  const documents = [...live.values()].sort((a, b) => (a._id < b._id ? -1 : 1))
  return { documents, tornTail }
}

function parseLine(line: string): NedbDocument | undefined {
  try {
    const value: unknown = JSON.parse(line)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    const document = value as Record<string, unknown>
    if ('$$indexCreated' in document || '$$indexRemoved' in document) {
      return document as NedbDocument
    }
    return typeof document._id === 'string' ? (document as NedbDocument) : undefined
  } catch {
    return undefined
  }
}
