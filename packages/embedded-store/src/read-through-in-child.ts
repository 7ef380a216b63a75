import { execFile } from 'node:child_process'
import { access } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { StoreDamagedError } from './storage-errors.js'

/** Opens the store read-only and reads every record of every database in it. */
const readEverything = `
const [lmdb, file] = process.argv.slice(1)
const { open } = await import(lmdb)
const root = open({ path: file, readOnly: true, maxDbs: 64 })
for (const name of [...root.getKeys()]) {
  if (typeof name !== 'string') continue
  const db = root.openDB(name, { encoding: 'binary' })
  for (const { value } of db.getRange()) value.length
}
await root.close()
`

/**
 * Reads all of `file` once in a short-lived process of its own before this process opens it.
 * lmdb 3.5.6 has no checksums and crashes the process that reads a damaged page (a segmentation
 * fault or a heap abort), so a damaged store would end the service before it could say why; in
 * a child, the crash becomes a StoreDamagedError naming the file.
 * @throws StoreDamagedError
 */
export async function readThroughInChild(file: string): Promise<void> {
  try {
    await access(file)
  } catch {
    return
  }
  const lmdb = pathToFileURL(createRequire(import.meta.url).resolve('lmdb')).href
  const args = ['--input-type=module', '--eval', readEverything, lmdb, file]
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 120_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve()
      const how = error.signal ? `signal ${error.signal}` : `exit ${error.code}`
      const said = stderr.trim().split('\n').at(-1) ?? ''
      reject(new StoreDamagedError(file, `reading it through failed (${how}) ${said}`.trim()))
    })
  })
}
