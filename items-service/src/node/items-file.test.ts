import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readItemsFile, writeItemsFile } from './items-file.js'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'items-file-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const heat = { _id: '6740a1f2c3d4e5f6a7b8c9d0', id: 'tt0113277', name: 'Heat', genre: 'Crime' }
const alien = { _id: '6740a1f2c3d4e5f6a7b8c9d1', id: 'tt0078748', name: 'Alien', genre: 'Horror' }
const file = async (...lines: string[]) => {
  const path = join(dir, 'items.ndjson')
  await writeFile(path, lines.join('\n'))
  return path
}

describe('writeItemsFile', () => {
  it('writes one item a line, in the order of the list, and nothing beside the file', async () => {
    const list = new TextEncoder().encode(JSON.stringify([heat, { ...alien, year: 1979 }]))
    const path = join(dir, 'out.ndjson')
    expect(await writeItemsFile(path, list)).toBe(2)
    expect(await readFile(path, 'utf8')).toBe(
      `${JSON.stringify(heat)}\n${JSON.stringify({ ...alien, year: 1979 })}\n`,
    )
    expect(await readdir(dir)).toEqual(['out.ndjson'])
  })

  it('writes an empty file for an empty list', async () => {
    const path = join(dir, 'empty.ndjson')
    expect(await writeItemsFile(path, new TextEncoder().encode('[]'))).toBe(0)
    expect(await readFile(path, 'utf8')).toBe('')
  })
})

describe('readItemsFile', () => {
  it('reads the items and their lines, skipping blank lines and taking CRLF', async () => {
    const path = await file(JSON.stringify(heat), '', `${JSON.stringify(alien)}\r`, '')
    expect(await readItemsFile(path)).toEqual({ items: [heat, alien], lines: [1, 3] })
  })

  it('takes an item of id `events`, which a write may no longer give but a store may hold', async () => {
    const path = await file(JSON.stringify({ ...heat, id: 'events' }))
    expect(await readItemsFile(path)).toEqual({ items: [{ ...heat, id: 'events' }], lines: [1] })
  })

  it("keeps each item's _owner, and refuses one that is no string", async () => {
    const owned = {
      _id: heat._id,
      _owner: 'auth0|alice',
      id: heat.id,
      name: 'Heat',
      genre: 'Crime',
    }
    expect(await readItemsFile(await file(JSON.stringify(owned)))).toEqual({
      items: [owned],
      lines: [1],
    })
    const bad = await readItemsFile(await file(JSON.stringify({ ...owned, _owner: 7 })))
    expect(bad).toMatchObject({
      problems: [{ line: 1, message: expect.stringMatching(/^_owner: /) }],
    })
  })

  it('names every bad line by its number, and answers no items', async () => {
    const path = await file(
      JSON.stringify(heat),
      'not json',
      '[1, 2]',
      JSON.stringify({ ...alien, _id: 'x' }),
      JSON.stringify({ _id: alien._id, id: 'tt2', name: 'n' }),
      JSON.stringify({ ...alien, $set: 1 }),
      '{"_id":"6740a1f2c3d4e5f6a7b8c9d9","id":"lone\\ud800","name":"n","genre":"g"}',
      JSON.stringify({ ...alien, _id: '6740a1f2c3d4e5f6a7b8c9d8', id: heat.id }),
      JSON.stringify({ ...alien, id: 'other', _id: heat._id }),
      '{"_id":"6740a1f2c3d4e5f6a7b8c9da","id":"tt3","name":"n","genre":"g","year":1e400}',
      '{"_id":"6740a1f2c3d4e5f6a7b8c9db","id":"tt4","name":"n","genre":"g","name":"m"}',
    )
    const read = await readItemsFile(path)
    expect('problems' in read && read.problems.map(({ line }) => line)).toEqual([
      2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    ])
    expect(read).toMatchObject({
      problems: [
        { line: 2, message: 'not JSON' },
        { line: 3, message: 'not a JSON object' },
        { line: 4, message: expect.stringContaining('_id') },
        { line: 5, message: expect.stringContaining('genre') },
        { line: 6, message: expect.stringContaining('$') },
        { line: 7, message: expect.stringContaining('surrogate') },
        { line: 8, message: "id 'tt0113277' is on line 1 too" },
        { line: 9, message: `_id ${heat._id} is on line 1 too` },
        { line: 10, message: expect.stringMatching(/^year: is beyond the range of a number/) },
        { line: 11, message: expect.stringMatching(/^name: is given more than once/) },
      ],
    })
  })

  it('tells how many lines it has read, every 10,000', async () => {
    const lines = Array.from({ length: 25_000 }, (_, n) =>
      JSON.stringify({ ...heat, _id: n.toString(16).padStart(24, '0'), id: `tt${n}` }),
    )
    const heard: number[] = []
    const read = await readItemsFile(await file(...lines), (count) => heard.push(count))
    expect(heard).toEqual([10_000, 20_000])
    expect('items' in read && read.items).toHaveLength(25_000)
  })
})
