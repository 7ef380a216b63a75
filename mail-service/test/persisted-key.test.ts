import { chmod, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ensureBuilt, startServer } from './support/run-server.js'

let dataDir: string
const keyFile = () => join(dataDir, 'mail-service.api-key')

beforeAll(ensureBuilt)
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mail-service-key-'))
})
afterEach(async () => {
  await killBuiltEntries()
  await rm(dataDir, { recursive: true, force: true })
})

/** Starts the entry without API_KEYS; the key its banner gives, and whether the key opens the log. */
async function startWithoutKeys() {
  const server = await startServer({ DATA_DIR: dataDir })
  const key = /^ {2}x-apikey: (\S+)$/m.exec(server.output)?.[1] ?? ''
  const status = async (apiKey: string) =>
    (await fetch(`${server.url}/maillog`, { headers: { 'x-apikey': apiKey } })).status
  return { server, key, status }
}

describe('node dist/server.js without API_KEYS', () => {
  it('makes a key once, keeps it in DATA_DIR with mode 0600, and gives it at every start', async () => {
    const first = await startWithoutKeys()
    expect(first.key).toMatch(/^[\w-]{32}$/)
    expect(first.server.output).toContain(`made now and kept in ${keyFile()}`)
    expect(await first.status(first.key)).toBe(200)
    expect(await first.status('another-key')).toBe(401)
    expect((await stat(keyFile())).mode & 0o777).toBe(0o600)
    expect(await first.server.stop()).toEqual({ code: 0, signal: null })

    const second = await startWithoutKeys()
    expect(second.key).toBe(first.key)
    expect(second.server.output).toContain(`the key kept in ${keyFile()}`)
    expect(await second.status(first.key)).toBe(200)
    expect((await stat(keyFile())).mode & 0o777).toBe(0o600)
  })

  it('narrows a key file other users may read to 0600, and warns that whoever read it has the key', async () => {
    const first = await startWithoutKeys()
    await first.server.stop()
    await chmod(keyFile(), 0o644)
    const second = await startWithoutKeys()
    expect(second.server.stderr).toContain(
      `warning: ${keyFile()} was open to other users (mode 0644); it is 0600 now. Whoever read ` +
        'it has the key: delete the file to have a new key made, or set API_KEYS',
    )
    expect((await stat(keyFile())).mode & 0o777).toBe(0o600)
    expect(second.key).toBe(first.key)
  })

  it('writes nothing when API_KEYS is set', async () => {
    const server = await startServer({ DATA_DIR: dataDir, API_KEYS: 'fixed-mail-api-key' })
    expect(server.output).not.toContain('x-apikey:')
    await expect(stat(keyFile())).rejects.toThrow('ENOENT')
  })
})
