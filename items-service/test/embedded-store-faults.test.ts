import { open, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type BuiltEntry, killBuiltEntries, SmallDisk } from '@movies-and-mail/test-kit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { failedStart, startService, temporaryDataDir } from './support/built-service.js'

const json = { 'content-type': 'application/json' }
const movie = (n: number) => ({ id: `tt${n}`, name: `Movie ${n}`, genre: 'Drama' })
const bigMovie = (n: number) => ({ ...movie(n), plot: 'p'.repeat(3_000) })

const post = (service: BuiltEntry, body: unknown) =>
  fetch(`${service.url}/items`, { method: 'POST', headers: json, body: JSON.stringify(body) })
const get = async (service: BuiltEntry, path: string) => {
  const response = await fetch(service.url + path)
  return { status: response.status, body: await response.json() }
}

describe('two processes on one DATA_DIR', () => {
  afterEach(killBuiltEntries)

  it('refuses the second at start, naming the directory and the owner', async () => {
    const DATA_DIR = await temporaryDataDir()
    const first = await startService({ DATA_DIR })
    const second = await failedStart({ DATA_DIR })
    expect(second.code).toBe(1)
    expect(second.stderr).toContain(`DATA_DIR ${DATA_DIR} is in use by items-service`)
    expect(second.stderr).toContain(`pid ${first.pid}`)
    expect((await post(first, movie(1))).status).toBe(201)
  })

  it('lets exactly one of two simultaneous starts serve', async () => {
    const DATA_DIR = await temporaryDataDir()
    const starts = await Promise.allSettled([
      startService({ DATA_DIR }),
      startService({ DATA_DIR }),
    ])
    expect(starts.map((start) => start.status).sort()).toEqual(['fulfilled', 'rejected'])
  })

  it('never lets a lock left by a killed process block a restart', async () => {
    const DATA_DIR = await temporaryDataDir()
    const first = await startService({ DATA_DIR })
    const acknowledged = await (await post(first, movie(1))).json()
    first.kill('SIGKILL')
    await first.exited
    const second = await startService({ DATA_DIR })
    expect((await get(second, '/items')).body).toEqual(acknowledged)
  })
})

describe('a damaged store', () => {
  afterEach(killBuiltEntries)

  // Forty synced writes, a kill and two starts (the second reads the store through in a child
  // process, as after any crash): longer than the default timeout on a busy machine.
  it('refuses to start, naming the file, and leaves the file as it is', async () => {
    const DATA_DIR = await temporaryDataDir()
    const service = await startService({ DATA_DIR })
    for (let n = 0; n < 40; n++) expect((await post(service, bigMovie(n))).status).toBe(201)
    service.kill('SIGKILL')
    await service.exited
    // Every page past the two meta pages is overwritten, as a failing disk might.
    const file = join(DATA_DIR, 'items-service.mdb')
    const { size } = await stat(file)
    const handle = await open(file, 'r+')
    await handle.write(Buffer.alloc(size - 8_192, 0x5a), 0, size - 8_192, 8_192)
    await handle.close()
    const damaged = await readFile(file)

    const again = await failedStart({ DATA_DIR })
    expect(again.code).toBe(1)
    expect(again.stderr).toContain(`${file} is damaged`)
    expect(await readFile(file)).toEqual(damaged)
  }, 60_000)
})

const probe = await SmallDisk.mount('64k')
await probe?.unmount()
if (!probe)
  console.log('Full-disk tests skipped: they mount a small tmpfs, which needs root on Linux')

describe.skipIf(!probe)('a full disk (a 256 KiB tmpfs as DATA_DIR)', () => {
  afterEach(killBuiltEntries)
  let disk: SmallDisk
  let DATA_DIR: string
  beforeEach(async () => {
    disk = (await SmallDisk.mount('256k')) as SmallDisk
    DATA_DIR = disk.dir
  })
  afterEach(() => disk.unmount())

  /** POSTs 3 KB movies until one is refused; the list last acknowledged and the refused id. */
  async function fill(service: BuiltEntry) {
    let acknowledged: unknown = []
    for (let n = 0; n < 200; n++) {
      const response = await post(service, bigMovie(n))
      if (response.status !== 201) {
        expect(response.status).toBe(507)
        expect(await response.json()).toEqual({ error: 'no space left to store the write' })
        return { acknowledged, refused: `tt${n}`, next: n }
      }
      acknowledged = await response.json()
    }
    throw new Error('the disk never filled up')
  }

  it('refuses the write that does not fit with 507 and keeps serving reads', async () => {
    const service = await startService({ DATA_DIR })
    const { acknowledged, refused, next } = await fill(service)
    expect((await get(service, '/items')).body).toEqual(acknowledged)
    expect((await get(service, `/items/${refused}`)).status).toBe(404)
    // The refused id is not held: a retry is refused for space again, not as a duplicate.
    expect((await post(service, bigMovie(next))).status).toBe(507)
    expect(await get(service, '/healthz')).toEqual({
      status: 503,
      body: { error: 'no space left to store the write' },
    })

    // Space comes back: health says so once a write succeeds, with no restart.
    disk.resize('2m')
    expect(await get(service, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } })
    expect((await post(service, bigMovie(next))).status).toBe(201)
  })

  it('answers /healthz 503 after a restart on a disk still full, before any write fails', async () => {
    const service = await startService({ DATA_DIR })
    await fill(service)
    service.kill('SIGTERM')
    await service.exited
    const restarted = await startService({ DATA_DIR })
    expect(await get(restarted, '/healthz')).toEqual({
      status: 503,
      body: { error: 'no space left to store the write' },
    })
    disk.resize('2m')
    expect(await get(restarted, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } })
  })

  it('loses no acknowledged write and keeps no refused one across kill -9 or a stop', async () => {
    const first = await startService({ DATA_DIR })
    const { acknowledged, refused } = await fill(first)
    first.kill('SIGKILL')
    await first.exited

    const second = await startService({ DATA_DIR })
    expect((await get(second, '/items')).body).toEqual(acknowledged)
    expect((await get(second, `/items/${refused}`)).status).toBe(404)
    second.kill('SIGTERM')
    expect((await second.exited).code).toBe(0)

    disk.resize('2m')
    const third = await startService({ DATA_DIR })
    expect((await get(third, '/items')).body).toEqual(acknowledged)
    expect((await post(third, { ...movie(0), id: refused })).status).toBe(201)
  })
})

describe('the datafile of an earlier release (NeDB)', () => {
  afterEach(killBuiltEntries)
  const ids = ['670000000000000000000001', '670000000000000000000002', '670000000000000000000003']
  const line = (document: object) => `${JSON.stringify(document)}\n`
  const datafile =
    line({ _id: ids[1], ...movie(2) }) +
    line({ _id: ids[0], ...movie(1) }) +
    line({ _id: ids[2], ...movie(3) }) +
    line({ $$indexCreated: { fieldName: 'id', unique: true } }) +
    line({ _id: ids[0], ...movie(1), genre: 'Comedy' }) +
    line({ $$deleted: true, _id: ids[2] })

  it('is imported once on the first start, kept as it was, and a torn last line left out', async () => {
    const DATA_DIR = await temporaryDataDir()
    const file = join(DATA_DIR, 'movies.db')
    const old = `${datafile}{"_id":"670000000000000000000009","id":"tt9","na`
    await writeFile(file, old)

    const first = await startService({ DATA_DIR })
    expect((await get(first, '/items')).body).toEqual([
      { _id: ids[0], ...movie(1), genre: 'Comedy' },
      { _id: ids[1], ...movie(2) },
    ])
    expect(first.stdout).toContain(`imported 2 items from ${file}; that file is kept as it was`)
    expect(first.stdout).toContain('its last line was cut short by a crash')
    const acknowledged = await (await post(first, movie(4))).json()
    first.kill('SIGKILL')
    await first.exited
    expect(await readFile(file, 'utf8')).toBe(old)

    // Imported once: what the file says now is not read again.
    await writeFile(file, line({ _id: ids[2], ...movie(3) }))
    const second = await startService({ DATA_DIR })
    expect((await get(second, '/items')).body).toEqual(acknowledged)
    expect(second.stdout).not.toContain('imported')
  })

  it('refuses to start on an id too long to index, importing nothing', async () => {
    const DATA_DIR = await temporaryDataDir()
    const file = join(DATA_DIR, 'movies.db')
    await writeFile(
      file,
      datafile + line({ _id: '670000000000000000000009', ...movie(9), id: 'x'.repeat(2000) }),
    )
    const refused = await failedStart({ DATA_DIR })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      '670000000000000000000009 has an id longer than the store can index',
    )
    // Fixed by hand, the file is imported whole: nothing of the refused start remained.
    await writeFile(file, datafile)
    const service = await startService({ DATA_DIR })
    expect((await get(service, '/items')).body).toHaveLength(2)
    expect(service.stdout).toContain(`imported 2 items from ${file}`)
  })

  it('refuses to start when a line in the middle is damaged, naming the file and the line', async () => {
    const DATA_DIR = await temporaryDataDir()
    const file = join(DATA_DIR, 'movies.db')
    const damaged = datafile.replace('"id":"tt1","name"', '"id":"tt1",#"name"')
    await writeFile(file, damaged)
    const service = await failedStart({ DATA_DIR })
    expect(service.code).toBe(1)
    expect(service.stderr).toContain(`${file} is damaged (line 2 is not a JSON document`)
    expect(await readFile(file, 'utf8')).toBe(damaged)
  })
})
