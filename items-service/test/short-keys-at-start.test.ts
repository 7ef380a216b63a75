import { afterAll, describe, expect, it } from 'vitest'
import { failedStart, temporaryDataDir } from './support/built-service.js'
import { WorkerUnderTest } from './support/worker-under-test.js'

// A key of a few letters can be guessed, and redacting it would mask it inside ordinary words of
// every log line: a start with one stops, naming the setting and the length, never the key.
const shortKey = 'Sh0rt-K3y-15chr'
const refusal =
  'ITEMS_APIKEY (value not shown): must be at least 16 characters long, so that it cannot be guessed'

describe('items-service, on Node, given an ITEMS_APIKEY shorter than 16 characters', () => {
  it('does not start: the reason on stderr, exit code 1, and the key nowhere', async () => {
    const service = await failedStart({
      DATA_DIR: await temporaryDataDir(),
      ITEMS_APIKEY: shortKey,
    })
    expect(service.code).toBe(1)
    expect(service.stderr).toBe(`items-service cannot start: invalid settings:\n  ${refusal}\n`)
    expect(service.output).not.toContain(shortKey)
  })
})

describe('items-service, on Workers, given an ITEMS_APIKEY shorter than 16 characters', () => {
  const workers: WorkerUnderTest[] = []
  afterAll(() => Promise.all(workers.map((worker) => worker.stop())))

  it('answers 503 to every call, and its log names the setting but not the key', async () => {
    const worker = await WorkerUnderTest.start({ ITEMS_APIKEY: shortKey })
    workers.push(worker)
    expect(await worker.refusesAsMisconfigured(['/items', '/items/tt0113277'])).toBe(true)
    expect(worker.stderr).toContain(`items-service cannot start: invalid settings:\n  ${refusal}`)
    expect(worker.stdout + worker.stderr).not.toContain(shortKey)
  })
})
