import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BuiltEntry, brokenBuild } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './support/run-server.js'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))
const apiKey = 'broken-build-api-key'

// What a start does not ask for loads on demand, each in a chunk of its own: Swagger UI's files
// (the first request for the docs), prom-client (METRICS_PORT), pino (LOG_FORMAT=json), the deta
// SDK (DETA_PROJECT_KEY) and the MongoDB store (MAIL_CONNECTION_URL). A start without them does
// not read those chunks at all.
describe('a build whose optional chunks cannot load', () => {
  let dist: string
  let dataDir: string
  const options = (env: Record<string, string> = {}) => ({
    cwd: serviceDir,
    env: { DATA_DIR: dataDir, API_KEYS: apiKey, ...env },
    inherit: ['PATH'],
  })
  beforeAll(async () => {
    ensureBuilt()
    dataDir = await mkdtemp(join(tmpdir(), 'mail-broken-build-'))
    dist = await brokenBuild(serviceDir, 'optional', [
      /^swagger-ui-files\.bundled-.*\.js$/,
      /^mail-metrics-.*\.js$/,
      /^json-log-.*\.js$/,
      /^deta-stores-.*\.js$/,
      /^mongo-state-.*\.js$/,
    ])
  })
  afterAll(async () => {
    await rm(dist, { recursive: true, force: true })
    await rm(dataDir, { recursive: true, force: true })
  })

  it('starts on the embedded store with text lines and no metrics, and answers', async () => {
    const service = await BuiltEntry.start(join(dist, 'server.js'), options())
    try {
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
      const log = await fetch(`${service.url}/maillog`, { headers: { 'x-apikey': apiKey } })
      expect(log.status).toBe(200)
      expect(await log.json()).toEqual([])
    } finally {
      expect(await service.stop()).toEqual({ code: 0, signal: null })
    }
  })

  it.each([
    ['METRICS_PORT', { METRICS_PORT: '0' }],
    ['LOG_FORMAT=json', { LOG_FORMAT: 'json' }],
    ['DETA_PROJECT_KEY', { DETA_PROJECT_KEY: 'b0_projectsecret', DETA_BASE_HOST: '127.0.0.1:9' }],
  ])('fails the start with the reason when %s asks for one', async (_, env) => {
    const start = await BuiltEntry.startExpectingFailure(join(dist, 'server.js'), options(env))
    expect(start.code).toBe(1)
    expect(start.stderr).toMatch(/^mail-service cannot start: .*(SyntaxError|Unexpected)/m)
    expect(start.stdout).not.toContain('listening')
  })
})
