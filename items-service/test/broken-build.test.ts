import { cp, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BuiltEntry } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { temporaryDataDir } from './support/built-service.js'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))
// Inside the service's folder, so that the copy finds the packages the build leaves external.
const brokenDist = join(serviceDir, `dist-broken-${process.pid}`)

describe('a build whose app chunk cannot load', () => {
  beforeAll(async () => {
    await cp(join(serviceDir, 'dist'), brokenDist, { recursive: true })
    const app = (await readdir(join(brokenDist, 'chunks'))).find((name) =>
      /^app-.*\.js$/.test(name),
    )
    if (!app) throw new Error('the build has no app chunk')
    await writeFile(join(brokenDist, 'chunks', app), 'export const createApp = ;\n')
  })
  afterAll(() => rm(brokenDist, { recursive: true, force: true }))

  it('fails the start: exit 1 with the reason, and never says it is listening', async () => {
    const start = await BuiltEntry.startExpectingFailure(join(brokenDist, 'server.js'), {
      cwd: serviceDir,
      env: { DATA_DIR: await temporaryDataDir() },
      inherit: ['PATH'],
    })
    expect(start.code).toBe(1)
    expect(start.stderr).toMatch(
      /^items-service failed to load its routes: .*(SyntaxError|Unexpected)/m,
    )
    expect(start.stdout).not.toContain('listening')
  })
})
