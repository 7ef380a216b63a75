import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StoreDamagedError } from '@movies-and-mail/embedded-store'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EmbeddedStores } from './embedded-stores.js'

const line = (document: object) => `${JSON.stringify(document)}\n`
const id = (n: number) => `0190a0b0c0d0000${n}deadbeef`
const sent = (n: number, name = `Reader ${n}`) => ({
  _id: id(n),
  email: `reader${n}@example.com`,
  name,
  output: { id: `<${n}@mg.example.com>`, message: 'Queued. Thank you.' },
})

/** A maillog.db as the NeDB release left it: appended lines, then never compacted. */
const maillogFile =
  line(sent(1)) +
  line({ $$indexCreated: { fieldName: 'email', unique: false } }) +
  line(sent(3)) +
  line(sent(2)) +
  line(sent(1, 'Ada')) +
  line({ $$deleted: true, _id: id(3) }) +
  line(sent(4))

describe('the log files of the NeDB release', () => {
  let dir: string
  let said: string[]
  let logs: EmbeddedStores
  const open = (name: 'maillog' | 'outbox') => {
    logs = new EmbeddedStores(dir, { say: (text) => said.push(text) })
    return logs.open(name)
  }
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maillog-import-'))
    said = []
  })
  afterEach(async () => {
    await logs.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('are imported on the first start: replaced lines as last written, deleted ones gone', async () => {
    await writeFile(join(dir, 'maillog.db'), maillogFile)
    await writeFile(join(dir, 'outbox.db'), line({ _id: id(5), to: 'ada@example.com' }))
    const mailLog = await open('maillog')
    expect(await mailLog.list({ limit: 10 })).toEqual([sent(4), sent(2), sent(1, 'Ada')])
    expect(await (await logs.open('outbox')).list({ limit: 10 })).toEqual([
      { _id: id(5), to: 'ada@example.com' },
    ])
    expect(said).toEqual([
      `imported 3 records from ${join(dir, 'maillog.db')}; that file is kept as it was`,
      `imported 1 record from ${join(dir, 'outbox.db')}; that file is kept as it was`,
    ])
  })

  it('are imported once, and kept byte for byte', async () => {
    const file = join(dir, 'maillog.db')
    await writeFile(file, maillogFile)
    const added = await (await open('maillog')).insert({ email: 'new@example.com' })
    await logs.close()
    expect(await readFile(file, 'utf8')).toBe(maillogFile)

    await writeFile(file, line(sent(9)))
    said = []
    const listed = await (await open('maillog')).list({ limit: 10 })
    expect(listed).toEqual([added, sent(4), sent(2), sent(1, 'Ada')])
    expect(said).toEqual([])
  })

  it('refuse the start when a line in the middle is damaged, naming the file and the line', async () => {
    const file = join(dir, 'maillog.db')
    const damaged = maillogFile.replace('"name":"Reader 2"', '"name":"Reader 2')
    await writeFile(file, damaged)
    await expect(open('maillog')).rejects.toThrow(StoreDamagedError)
    await expect(open('maillog')).rejects.toThrow(`${file} is damaged (line 4 is not`)
    expect(await readFile(file, 'utf8')).toBe(damaged)

    await writeFile(file, maillogFile)
    expect(await (await open('maillog')).list({ limit: 1 })).toEqual([sent(4)])
  })

  it('leave out a last line cut short by a crash, and say so', async () => {
    const file = join(dir, 'maillog.db')
    await writeFile(file, `${maillogFile}{"_id":"${id(6)}","email":"rea`)
    const listed = await (await open('maillog')).list({ limit: 10 })
    expect(listed.map((record) => record._id)).toEqual([id(4), id(2), id(1)])
    expect(said).toContain(
      `${file}: its last line was cut short by a crash before it was acknowledged; left out`,
    )
  })
})
