import { join } from 'node:path'
import { type EmbeddedEnv, readNedbDatafile } from '@movies-and-mail/embedded-store'

/**
 * Brings the records of an earlier release's log file (`<dataDir>/<name>.db`, NeDB's format)
 * into the log `name` of the store, in one transaction with a mark that says it was done, so it
 * happens once, on the first start that finds the log unmarked. The old file is only read: it
 * stays as it was. Records keep their `_id`, which sorts by time like the ids made now.
 * @returns lines for the start-up log saying what was done
 * @throws StoreDamagedError naming the file and the line when the old file is damaged
 */
export async function importNedbLogOnce(env: EmbeddedEnv, name: string): Promise<string[]> {
  const marks = env.database<string>('imports', 'string')
  if (marks.get(name) !== undefined) return []
  const file = join(env.dataDir, `${name}.db`)
  const datafile = await readNedbDatafile(file)
  const records = env.database<string>(name, 'string')
  const entries = (datafile?.documents ?? []).map(
    (document) => [document._id, JSON.stringify(document)] as const,
  )
  const mark = JSON.stringify({
    from: datafile ? file : null,
    records: entries.length,
    at: new Date(),
  })
  const bytes = entries.reduce((sum, [, json]) => sum + Buffer.byteLength(json), mark.length)
  await env.commit(bytes, () => {
    for (const [id, json] of entries) records.put(id, json)
    marks.put(name, mark)
  })
  if (!datafile) return []
  const count = `${entries.length} record${entries.length === 1 ? '' : 's'}`
  const notices = [`imported ${count} from ${file}; that file is kept as it was`]
  if (datafile.tornTail) {
    notices.push(
      `${file}: its last line was cut short by a crash before it was acknowledged; left out`,
    )
  }
  return notices
}
