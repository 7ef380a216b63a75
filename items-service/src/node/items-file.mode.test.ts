import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeItemsFile } from './items-file.js'

let dir = ''
let umask = 0
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'items-file-mode-'))
  // The mode must not come from the umask: none at all takes nothing away.
  umask = process.umask(0)
})
afterEach(async () => {
  process.umask(umask)
  await rm(dir, { recursive: true, force: true })
})

const list = new TextEncoder().encode(JSON.stringify([{ _id: 'a', id: 'tt1', name: 'Heat' }]))
const modeOf = async (path: string) => (await stat(path)).mode & 0o777

describe('writeItemsFile and the mode of the export', () => {
  it('writes a file only its owner may read, wherever it goes', async () => {
    const path = join(dir, 'items.ndjson')
    await writeItemsFile(path, list)
    expect(await modeOf(path)).toBe(0o600)
  })

  it('replaces a file open to others, and a partial one left behind, by one of mode 0600', async () => {
    const path = join(dir, 'items.ndjson')
    await writeFile(path, 'old\n')
    await chmod(path, 0o644)
    await writeFile(`${path}.partial`, 'cut short')
    await chmod(`${path}.partial`, 0o666)
    await writeItemsFile(path, list)
    expect(await modeOf(path)).toBe(0o600)
  })
})
