import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killBuiltEntries } from '@movies-and-mail/http-kit/test-support'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, startServer } from './support/run-server.js'

const cleanups: (() => Promise<void>)[] = []
beforeAll(ensureBuilt)
afterEach(async () => {
  await killBuiltEntries()
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** A POST to /sendmail that sends a byte of its body every 100 ms and never ends it. */
function trickleForever(url: string): { cut: Promise<boolean>; stop: () => void } {
  const upload = request(`${url}/sendmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-apikey': 'k', 'content-length': '1000' },
  })
  const cut = new Promise<boolean>((resolve) => {
    upload.on('error', () => resolve(true))
    upload.on('response', () => resolve(false))
  })
  upload.write('{')
  const timer = setInterval(() => upload.write(' '), 100)
  return {
    cut,
    stop: () => {
      clearInterval(timer)
      upload.destroy()
    },
  }
}

describe('SIGTERM', () => {
  it('cuts a body that never ends at SHUTDOWN_TIMEOUT_MS, exits 0 and keeps what was acknowledged', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mail-service-stop-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const env = { DATA_DIR: dataDir, API_KEYS: 'k', SHUTDOWN_TIMEOUT_MS: '1000' }
    const server = await startServer(env)
    const sent = await fetch(`${server.url}/sendmail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': 'k' },
      body: JSON.stringify({ email: 'ada@example.com', name: 'Ada' }),
    })
    expect(sent.status).toBe(201)
    const upload = trickleForever(server.url)
    await new Promise((resolve) => setTimeout(resolve, 300))

    const signalled = Date.now()
    server.kill('SIGTERM')
    expect((await server.exited).code).toBe(0)
    const took = Date.now() - signalled
    expect(took).toBeGreaterThanOrEqual(900)
    // The deadline, plus closing the logs and Node's exit on a slow machine.
    expect(took).toBeLessThan(1_000 + 1_500)
    expect(server.output).toContain('closed 1 connection(s) still in flight after 1000 ms')
    expect(await upload.cut).toBe(true)
    upload.stop()

    const again = await startServer(env)
    const log = await fetch(`${again.url}/maillog`, { headers: { 'x-apikey': 'k' } })
    expect(await log.json()).toEqual([
      expect.objectContaining({ email: 'ada@example.com', name: 'Ada' }),
    ])
  })
})
