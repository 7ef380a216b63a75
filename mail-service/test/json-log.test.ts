import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { keyDigest } from '../src/api-keys/key-owner.js'
import { ensureBuilt, startServer } from './support/run-server.js'

const apiKey = 'json-log-test-key-1'
beforeAll(ensureBuilt)
afterEach(killBuiltEntries)

describe('LOG_FORMAT=json on mail-service', () => {
  it("writes every line as one JSON object, a send's with the digest of its key, never the key", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mail-service-json-log-'))
    try {
      const service = await startServer({ DATA_DIR: dataDir, API_KEYS: apiKey, LOG_FORMAT: 'json' })
      const sent = await fetch(`${service.url}/sendmail`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-apikey': apiKey },
        body: JSON.stringify({ email: 'ada@example.com', name: 'Ada' }),
      })
      expect(sent.status).toBe(201)
      expect(await service.stop()).toEqual({ code: 0, signal: null })
      const entries = service.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(entries[0]?.msg).toMatch(/^mail-service listening on http:/)
      expect(entries.filter((entry) => 'requestId' in entry)).toEqual([
        {
          time: expect.any(String),
          level: 'info',
          requestId: sent.headers.get('x-request-id'),
          method: 'POST',
          path: '/sendmail',
          route: '/sendmail',
          status: 201,
          durationMs: expect.any(Number),
          keyDigest: await keyDigest(apiKey),
        },
      ])
      expect(service.stdout).not.toContain(apiKey)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
