import { createServer, type Socket } from 'node:net'
import type { FailedStart } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { closedPort, failedStart, temporaryDataDir } from './support/built-service.js'

const connectTimeoutMs = 1_500
/** Node's own start-up and exit, on a slow machine. */
const marginMs = 3_500

describe('a service that cannot start', () => {
  const sockets = new Set<Socket>()
  const silent = createServer((socket) => sockets.add(socket))
  afterEach(async () => {
    for (const socket of sockets) socket.destroy()
    if (silent.listening) await new Promise((resolve) => silent.close(resolve))
  })

  it('exits non-zero within CONNECT_TIMEOUT_MS when MongoDB refuses connections', async () => {
    const started = Date.now()
    const service = await failedStart({
      DATA_DIR: await temporaryDataDir(),
      CONNECTION_URL: `mongodb://127.0.0.1:${await closedPort()}`,
      CONNECT_TIMEOUT_MS: String(connectTimeoutMs),
    })
    expect(service.code).not.toBe(0)
    expect(service.code).not.toBeNull()
    expect(Date.now() - started).toBeLessThan(connectTimeoutMs + marginMs)
    expect(service.stderr).toMatch(/cannot start: .*(ECONNREFUSED|no answer from the database)/)
    expect(service.stdout).not.toContain('listening')
  })

  it('exits non-zero within CONNECT_TIMEOUT_MS when the server accepts but never answers', async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    const started = Date.now()
    const service = await failedStart({
      DATA_DIR: await temporaryDataDir(),
      CONNECTION_URL: `mongodb://127.0.0.1:${port}`,
      CONNECT_TIMEOUT_MS: String(connectTimeoutMs),
    })
    expect(service.code).not.toBe(0)
    expect(Date.now() - started).toBeLessThan(connectTimeoutMs + marginMs)
    expect(service.stderr).toContain('cannot start')
  })

  it.each([
    ['PORT', 'abc'],
    ['CONNECTION_URL', 'http://x'],
    ['CONNECT_TIMEOUT_MS', '-1'],
  ])('exits non-zero with a readable message for %s=%s', async (name, value) => {
    const service = await failedStart({ DATA_DIR: await temporaryDataDir(), [name]: value })
    expect(service.code).toBe(1)
    expect(service.stderr).toContain(`${name}=${JSON.stringify(value)}`)
    expect(service.stderr).not.toMatch(/^\s+at /m)
  })

  describe('never prints a password', () => {
    const secret = 'pw-NEVER-PRINT-7c1'
    const printed = (service: FailedStart) => service.stdout + service.stderr

    it('of a CONNECTION_URL with the wrong scheme, still naming user and host', async () => {
      const service = await failedStart({
        DATA_DIR: await temporaryDataDir(),
        CONNECTION_URL: `postgres://reader:${secret}@db.example/films`,
      })
      expect(service.code).toBe(1)
      expect(printed(service)).not.toContain(secret)
      expect(service.stderr).toContain('CONNECTION_URL="postgres://reader:***@db.example/films"')
    })

    it.each([
      [
        'a database that refuses',
        (port: number) => `mongodb://reader:${secret}@127.0.0.1:${port}/`,
      ],
      [
        'a URL the driver cannot parse',
        () => `mongodb://reader:${secret}@x@127.0.0.1:1/?ssl=maybe`,
      ],
    ])('of a MongoDB URL at start, for %s', async (_, url) => {
      const port = await closedPort()
      const service = await failedStart({
        DATA_DIR: await temporaryDataDir(),
        CONNECTION_URL: url(port),
        CONNECT_TIMEOUT_MS: '300',
      })
      expect(service.code).toBe(1)
      expect(printed(service)).not.toContain(secret)
      expect(service.stderr).toMatch(/^items-service cannot start: .*mongodb:\/\/reader:\*\*\*@/m)
    })
  })

  it('exits non-zero when its port is taken', async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    const service = await failedStart({
      DATA_DIR: await temporaryDataDir(),
      PORT: String(port),
    })
    expect(service.code).not.toBe(0)
    expect(service.stderr).toBe(`items-service cannot start: port ${port} is in use\n`)
  })
})
