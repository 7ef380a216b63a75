import {
  type EmbeddedEnv,
  readNedbDatafile,
  StoreDamagedError,
} from '@movies-and-mail/embedded-store'

/** The longest key LMDB takes, in bytes; an item's id is the key of the index of ids. */
const maxKeyBytes = 1978

/**
 * Brings the items of the earlier releases' datafile (`<collection>.db`, NeDB's format) into
 * the store on its first start, in one transaction, and marks the collection as imported so it
 * never happens twice. The old file is only read: it stays as it was.
 * @returns lines for the start-up log saying what was done
 * @throws StoreDamagedError when the old file is damaged, holds two items with one id, or an id
 *   no index can hold
 */
export async function importNedbOnce(
  env: EmbeddedEnv,
  collection: string,
  file: string,
): Promise<string[]> {
  const marks = env.database<string>('imports', 'string')
  if (marks.get(collection) !== undefined) return []
  const datafile = await readNedbDatafile(file)
  const items = env.database(collection)
  const keys = env.database<string>(`${collection}.ids`, 'string')
  const records: [key: string, id: string, json: Buffer][] = []
  const seen = new Set<string>()
  for (const document of datafile?.documents ?? []) {
    const { _id, id } = document
    if (typeof id !== 'string' || seen.has(id)) {
      throw new StoreDamagedError(file, `item ${_id} has no id, or one another item has`)
    }
    // Refused here, before the commit: a put the engine refuses partway would leave the puts
    // before it in the transaction.
    if (Buffer.byteLength(id) > maxKeyBytes) {
      throw new StoreDamagedError(file, `item ${_id} has an id longer than the store can index`)
    }
    seen.add(id)
    records.push([_id, id, Buffer.from(JSON.stringify(document))])
  }
  const mark = JSON.stringify({
    from: datafile ? file : null,
    items: records.length,
    at: new Date(),
  })
  const bytes = records.reduce((sum, [, , json]) => sum + json.length, mark.length)
  await env.commit(bytes, () => {
    for (const [key, id, json] of records) {
      items.put(key, json)
      keys.put(id, key)
    }
    marks.put(collection, mark)
  })
  if (!datafile) return []
  const notices = [`imported ${records.length} items from ${file}; that file is kept as it was`]
  if (datafile.tornTail) {
    notices.push(
      `${file}: its last line was cut short by a crash before it was acknowledged; left out`,
    )
  }
  return notices
}
