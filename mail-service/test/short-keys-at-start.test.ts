import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, failedStart } from './support/run-server.js'
import { bindings, workerForThisTest } from './support/worker-under-test.js'

// A key of a few letters can be guessed, and redacting it would mask it inside ordinary words of
// every log line: a start with one stops, naming the setting, the length and which key by its
// place in the list, never the key.
const shortKey = 'Sh0rt-K3y-15chr'
const keys = `a-long-enough-mail-key,${shortKey}`
const refusal =
  'API_KEYS (value not shown): each key must be at least 16 characters long, so that it ' +
  'cannot be guessed; key 2 of 2 is shorter'

let dataDir: string
beforeAll(async () => {
  ensureBuilt()
  dataDir = await mkdtemp(join(tmpdir(), 'mail-service-short-keys-'))
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))
afterEach(killBuiltEntries)

describe('mail-service, on Node, given a key shorter than 16 characters', () => {
  it('does not start: the reason on stderr, exit code 1, and the key nowhere', async () => {
    const failed = await failedStart({ DATA_DIR: dataDir, API_KEYS: keys })
    expect(failed.code).toBe(1)
    expect(failed.stderr).toBe(`mail-service cannot start: invalid settings:\n  ${refusal}\n`)
    expect(failed.output).not.toContain(shortKey)
  })

  it('says so for ADMIN_API_KEYS too, even when API_KEYS holds the same key', async () => {
    const failed = await failedStart({
      DATA_DIR: dataDir,
      API_KEYS: 'Qz8-short',
      ADMIN_API_KEYS: 'Qz8-short',
    })
    expect(failed.code).toBe(1)
    const rule = 'must be at least 16 characters long, so that it cannot be guessed'
    expect(failed.stderr).toBe(
      'mail-service cannot start: invalid settings:\n' +
        `  API_KEYS (value not shown): ${rule}\n` +
        `  ADMIN_API_KEYS (value not shown): ${rule}\n`,
    )
  })
})

describe('mail-service, on Workers, given a key shorter than 16 characters', () => {
  it('answers 503 to every call, and its log names the setting but not the key', async () => {
    let output = ''
    const worker = workerForThisTest(
      { ...bindings, API_KEYS: keys },
      { onOutput: (text) => (output += text) },
    )
    for (const path of ['/healthz', '/maillog']) {
      const response = await worker.dispatchFetch(`http://worker.test${path}`)
      expect([response.status, await response.json()], path).toEqual([
        503,
        { error: 'the service is misconfigured; its log says which setting' },
      ])
    }
    expect(output).toContain(`mail-service cannot start: invalid settings:\n  ${refusal}`)
    expect(output).not.toContain(shortKey)
  })
})
