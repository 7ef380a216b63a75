import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterAll, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'

const run = promisify(execFile)
const serviceDir = fileURLToPath(new URL('..', import.meta.url))
const json = { 'content-type': 'application/json' }
const movies = [
  { id: 'tt0113277', name: 'Heat', genre: 'Crime' },
  { id: 'tt0078748', name: 'Alien', genre: 'Horror', year: 1979 },
  { id: 'Amélie 2001', name: 'Amélie', genre: 'Comedy' },
]

/** The built command, as `npm run export|import` runs it, from `from` (npm's INIT_CWD). */
async function command(
  name: 'export' | 'import',
  args: string[],
  env: Record<string, string>,
  from = serviceDir,
): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [`dist/${name}-items.js`, ...args], {
      cwd: serviceDir,
      env: { PATH: process.env.PATH ?? '', INIT_CWD: from, ...env },
    })
    return { code: 0, stderr }
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string }
    return { code, stderr }
  }
}

describe('npm run export and npm run import', () => {
  afterAll(killBuiltEntries)

  it('move a store to another DATA_DIR: same list, same _ids, same order; a rerun adds nothing', async () => {
    const [from, to, files] = [
      await temporaryDataDir(),
      await temporaryDataDir(),
      await temporaryDataDir(),
    ]
    const first = await startService({ DATA_DIR: from })
    for (const movie of movies) {
      const created = await fetch(`${first.url}/items`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(movie),
      })
      expect(created.status).toBe(201)
    }
    const before = await (await fetch(`${first.url}/items`)).text()

    // While the service owns the directory, both refuse, naming it.
    const busy = await command('export', ['items.ndjson'], { DATA_DIR: from }, files)
    expect(busy.code).toBe(1)
    expect(busy.stderr).toMatch(/in use by items-service \(pid \d+/)
    await first.stop()

    const exported = await command('export', ['items.ndjson'], { DATA_DIR: from }, files)
    expect(exported).toEqual({ code: 0, stderr: expect.stringContaining('exported 3 items') })
    const lines = (await readFile(join(files, 'items.ndjson'), 'utf8')).trimEnd().split('\n')
    expect(lines.map((line) => JSON.parse(line))).toEqual(JSON.parse(before))

    const imported = await command('import', ['items.ndjson'], { DATA_DIR: to }, files)
    expect(imported.code).toBe(0)
    expect(imported.stderr).toContain('imported 3 new, 0 replaced, 0 skipped')
    const again = await command('import', ['items.ndjson'], { DATA_DIR: to }, files)
    expect(again.stderr).toContain('imported 0 new, 0 replaced, 3 skipped')

    const second = await startService({ DATA_DIR: to })
    expect(await (await fetch(`${second.url}/items`)).text()).toBe(before)
    // New items come after the imported ones.
    const added = await fetch(`${second.url}/items`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ id: 'tt4', name: 'New', genre: 'Drama' }),
    })
    expect(((await added.json()) as { id: string }[]).map(({ id }) => id)).toEqual([
      ...movies.map(({ id }) => id),
      'tt4',
    ])
    await second.stop()
  })

  it('refuse a file with a bad line whole, naming each line, and store nothing', async () => {
    const [dir, files] = [await temporaryDataDir(), await temporaryDataDir()]
    const good = JSON.stringify({ _id: '6740a1f2c3d4e5f6a7b8c9d0', ...movies[0] })
    await writeFile(join(files, 'bad.ndjson'), `${good}\n{"_id":"nope"}\n`)
    const refused = await command('import', ['bad.ndjson'], { DATA_DIR: dir }, files)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`${join(files, 'bad.ndjson')}:2: `)
    expect(refused.stderr).toContain('nothing was imported: 1 bad line(s)')
    const exported = await command('export', ['after.ndjson'], { DATA_DIR: dir }, files)
    expect(exported.stderr).toContain('exported 0 items')
  })

  it('refuse an _id the store gives another id, store nothing, and close the store cleanly', async () => {
    const [dir, files] = [await temporaryDataDir(), await temporaryDataDir()]
    const path = join(files, 'items.ndjson')
    const item = { _id: '6740a1f2c3d4e5f6a7b8c9d0', ...movies[0] }
    await writeFile(path, `${JSON.stringify(item)}\n`)
    await command('import', [path], { DATA_DIR: dir })
    await writeFile(path, `${JSON.stringify({ ...item, id: 'tt-other' })}\n`)
    const refused = await command('import', [path], { DATA_DIR: dir })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`${path}:1: _id ${item._id} is item '${movies[0]?.id}''s`)
    expect(refused.stderr).toContain('nothing was imported: 1 bad line(s)')
    // Closed as after an import: the next opener need not read the store through first.
    expect(existsSync(join(dir, 'items-service.closed'))).toBe(true)
    await command('export', [path], { DATA_DIR: dir })
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(item)
  })

  it('with --replace, put each item in the place of the one of its id', async () => {
    const [dir, files] = [await temporaryDataDir(), await temporaryDataDir()]
    const path = join(files, 'items.ndjson')
    const item = { _id: '6740a1f2c3d4e5f6a7b8c9d0', ...movies[0] }
    await writeFile(path, `${JSON.stringify(item)}\n`)
    await command('import', [path], { DATA_DIR: dir })
    await writeFile(path, `${JSON.stringify({ ...item, name: 'Heat (1995)' })}\n`)
    const replaced = await command('import', [path, '--replace'], { DATA_DIR: dir })
    expect(replaced.stderr).toContain('imported 0 new, 1 replaced, 0 skipped')
    await command('export', [path], { DATA_DIR: dir })
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ ...item, name: 'Heat (1995)' })
  })

  it('say how to call them when given no file', async () => {
    expect(await command('import', [], {})).toEqual({
      code: 2,
      stderr: 'usage: npm run import -w items-service -- <file> [--replace]\n',
    })
    expect((await command('export', [], {})).code).toBe(2)
  })
})
