import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readNedbDatafile } from './nedb-datafile.js'
import { StoreDamagedError } from './storage-errors.js'

const line = (document: object) => `${JSON.stringify(document)}\n`

describe('readNedbDatafile', () => {
  let dir: string
  let file: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nedb-datafile-'))
    file = join(dir, 'movies.db')
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('answers null when there is no file', async () => {
    expect(await readNedbDatafile(file)).toBeNull()
  })

  it('keeps the last version of each document, drops deleted ones, orders them by _id', async () => {
    await writeFile(
      file,
      line({ _id: 'b', n: 1 }) +
        line({ _id: 'a', n: 1 }) +
        line({ $$indexCreated: { fieldName: 'id', unique: true } }) +
        line({ _id: 'c', n: 1 }) +
        line({ _id: 'b', n: 2 }) +
        line({ $$deleted: true, _id: 'c' }) +
        '\n',
    )
    expect(await readNedbDatafile(file)).toEqual({
      documents: [
        { _id: 'a', n: 1 },
        { _id: 'b', n: 2 },
      ],
      tornTail: false,
    })
  })

  it('leaves out a last line cut short, and says so', async () => {
    await writeFile(file, `${line({ _id: 'a' })}{"_id":"b","na`)
    expect(await readNedbDatafile(file)).toEqual({ documents: [{ _id: 'a' }], tornTail: true })
  })

  it('refuses a damaged line elsewhere, naming the file and the line', async () => {
    await writeFile(file, `${line({ _id: 'a' })}{"_id":"b","na\n${line({ _id: 'c' })}`)
    const reading = readNedbDatafile(file)
    await expect(reading).rejects.toThrow(StoreDamagedError)
    await expect(readNedbDatafile(file)).rejects.toThrow(`${file} is damaged (line 2 is not`)
  })

  it('refuses a complete last line that does not parse: it was acknowledged', async () => {
    await writeFile(file, `${line({ _id: 'a' })}{"_id":"b","na\n`)
    await expect(readNedbDatafile(file)).rejects.toThrow('line 2')
  })

  it('refuses a document without an _id', async () => {
    await writeFile(file, line({ id: 'x' }) + line({ _id: 'a' }))
    await expect(readNedbDatafile(file)).rejects.toThrow('line 1')
  })
})
