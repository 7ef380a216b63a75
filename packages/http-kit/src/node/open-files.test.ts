import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openFilesLimit, withinOpenFiles } from './open-files.js'

let dir = ''
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('openFilesLimit', () => {
  it("reads the soft limit of Linux's /proc/self/limits", async () => {
    dir = await mkdtemp(join(tmpdir(), 'limits-'))
    const limits = join(dir, 'limits')
    await writeFile(
      limits,
      'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 524288               files\n',
    )
    expect(openFilesLimit(limits)).toBe(1024)
    expect(openFilesLimit(join(dir, 'none'))).toBeUndefined()
  })

  it("reads this process's own on Linux", () => {
    if (process.platform === 'linux') expect(openFilesLimit()).toBeGreaterThan(0)
  })
})

describe('withinOpenFiles', () => {
  it('keeps descriptors for the store and a quarter of the connections for other requests', () => {
    expect(withinOpenFiles({ connections: Infinity, streams: 10_000 }, 1024)).toEqual({
      connections: 768,
      streams: 576,
    })
    expect(withinOpenFiles({ connections: Infinity, streams: 100 }, 1024).streams).toBe(100)
    expect(withinOpenFiles({ connections: 50, streams: 10_000 }, undefined)).toEqual({
      connections: 50,
      streams: 10_000,
    })
  })
})
