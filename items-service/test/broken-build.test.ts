import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BuiltEntry, brokenBuild } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { temporaryDataDir } from './support/built-service.js'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))

const options = async (env: Record<string, string> = {}) => ({
  cwd: serviceDir,
  env: { DATA_DIR: await temporaryDataDir(), ...env },
  inherit: ['PATH'],
})

describe('a build whose app chunk cannot load', () => {
  let dist: string
  beforeAll(async () => {
    dist = await brokenBuild(serviceDir, 'app', [/^app-.*\.js$/])
  })
  afterAll(() => rm(dist, { recursive: true, force: true }))

  it('fails the start: exit 1 with the reason, and never says it is listening', async () => {
    const start = await BuiltEntry.startExpectingFailure(join(dist, 'server.js'), await options())
    expect(start.code).toBe(1)
    expect(start.stderr).toMatch(
      /^items-service failed to load its routes: .*(SyntaxError|Unexpected)/m,
    )
    expect(start.stdout).not.toContain('listening')
  })
})

// prom-client and pino load only for a process that asks for metrics or JSON lines, the MongoDB
// store only with CONNECTION_URL: a start without them does not read their chunks at all.
describe('a build whose metrics, JSON log and MongoDB chunks cannot load', () => {
  let dist: string
  beforeAll(async () => {
    dist = await brokenBuild(serviceDir, 'optional', [
      /^items-metrics-.*\.js$/,
      /^json-log-.*\.js$/,
      /^mongo-item-store-.*\.js$/,
    ])
  })
  afterAll(() => rm(dist, { recursive: true, force: true }))

  it('starts without metrics, with text lines and the embedded store, and answers', async () => {
    const service = await BuiltEntry.start(join(dist, 'server.js'), await options())
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
      join(dist, 'server.js'),
      await options(env),
    )
    expect(start.code).toBe(1)
    expect(start.stderr).toMatch(/^items-service cannot start: .*(SyntaxError|Unexpected)/m)
    expect(start.stdout).not.toContain('listening')
  })
})
