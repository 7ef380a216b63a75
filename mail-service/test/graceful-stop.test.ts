import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killBuiltEntries, stopDuringTrickle } from '@movies-and-mail/test-kit'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, startServer } from './support/run-server.js'

const cleanups: (() => Promise<void>)[] = []
beforeAll(ensureBuilt)
afterEach(async () => {
  await killBuiltEntries()
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

describe('SIGTERM', () => {
  it('cuts a body that never ends at SHUTDOWN_TIMEOUT_MS, exits 0 and keeps what was acknowledged', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mail-service-stop-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const env = {
      DATA_DIR: dataDir,
      API_KEYS: 'graceful-stop-api-key',
      SHUTDOWN_TIMEOUT_MS: '1000',
    }
    const server = await startServer(env)
    const sent = await fetch(`${server.url}/sendmail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': 'graceful-stop-api-key' },
      body: JSON.stringify({ email: 'ada@example.com', name: 'Ada' }),
    })
    expect(sent.status).toBe(201)
    const { exit, tookMs, cut } = await stopDuringTrickle(server, `${server.url}/sendmail`, {
      'x-apikey': 'graceful-stop-api-key',
    })
    expect(server.output).toContain('closed 1 connection(s) still in flight after 1000 ms')
    expect([exit.code, cut]).toEqual([0, true])
    // At the deadline: not before, and not much later (closing the logs, Node's exit).
    expect(tookMs).toBeGreaterThanOrEqual(900)
    expect(tookMs).toBeLessThan(2_500)

    const again = await startServer(env)
    const log = await fetch(`${again.url}/maillog`, {
      headers: { 'x-apikey': 'graceful-stop-api-key' },
    })
    expect(await log.json()).toEqual([
      expect.objectContaining({ email: 'ada@example.com', name: 'Ada' }),
    ])
  })
})
