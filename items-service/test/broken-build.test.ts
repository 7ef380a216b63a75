import { cp, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BuiltEntry } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { temporaryDataDir } from './support/built-service.js'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))

/**
 * A copy of the build (inside the service's folder, so that it finds the packages the build
 * leaves external) whose chunks named by `broken` are each replaced by a syntax error.
 */
function brokenBuild(name: string, broken: RegExp[]): { dist: string } {
  const copy = { dist: join(serviceDir, `dist-broken-${name}-${process.pid}`) }
  beforeAll(async () => {
    await cp(join(serviceDir, 'dist'), copy.dist, { recursive: true })
    const chunks = await readdir(join(copy.dist, 'chunks'))
    for (const pattern of broken) {
      const chunk = chunks.find((file) => pattern.test(file))
      if (!chunk) throw new Error(`the build has no chunk ${pattern}`)
      await writeFile(join(copy.dist, 'chunks', chunk), 'export const broken = ;\n')
    }
  })
  afterAll(() => rm(copy.dist, { recursive: true, force: true }))
  return copy
}

describe('a build whose app chunk cannot load', () => {
  const broken = brokenBuild('app', [/^app-.*\.js$/])

  it('fails the start: exit 1 with the reason, and never says it is listening', async () => {
    const start = await BuiltEntry.startExpectingFailure(join(broken.dist, 'server.js'), {
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

// prom-client and pino load only for a process that asks for metrics or JSON lines: a start
// without them does not read their chunks at all.
describe('a build whose metrics and JSON log chunks cannot load', () => {
  const broken = brokenBuild('optional', [/^items-metrics-.*\.js$/, /^json-log-.*\.js$/])
  const options = async (env: Record<string, string> = {}) => ({
    cwd: serviceDir,
    env: { DATA_DIR: await temporaryDataDir(), ...env },
    inherit: ['PATH'],
  })

  it('starts without metrics and with text lines, and answers', async () => {
    const service = await BuiltEntry.start(join(broken.dist, 'server.js'), await options())
    try {
      const answer = await fetch(`${service.url}/items`)
      expect(answer.status).toBe(200)
      expect(await answer.json()).toEqual([])
    } finally {
      expect(await service.stop()).toEqual({ code: 0, signal: null })
    }
  })

  it.each([
    ['METRICS_PORT', { METRICS_PORT: '0' }],
    ['LOG_FORMAT=json', { LOG_FORMAT: 'json' }],
  ])('fails the start with the reason when %s asks for one', async (_, env) => {
    const start = await BuiltEntry.startExpectingFailure(
      join(broken.dist, 'server.js'),
      await options(env),
    )
    expect(start.code).toBe(1)
    expect(start.stderr).toMatch(/^items-service cannot start: .*(SyntaxError|Unexpected)/m)
    expect(start.stdout).not.toContain('listening')
  })
})
