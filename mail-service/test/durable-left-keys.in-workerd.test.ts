import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fingerprintOf } from '../src/ports/idempotency-store.js'
import { WorkerStateHarness } from './support/worker-state-harness.js'

// The mail state object's start, inside workerd: a harness stopped and started again on the
// same storage folder restarts the object, as a deploy or an eviction does.

const hour = 3_600_000
const owner = 'a'.repeat(64)
const ada = { email: 'ada@example.com', name: 'Ada' }
const output = { id: '<20261206120000.1@mg.example.com>', message: 'Queued. Thank you.' }
let dir: string | undefined
let harness: WorkerStateHarness | undefined

afterEach(async () => {
  await harness?.dispose()
  harness = undefined
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('the mail state object at its start', () => {
  it('completes from its mail log the keys left mid-send, before serving any call', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mail-left-keys-'))
    const object = randomUUID()
    const now = Date.now()
    const fingerprint = await fingerprintOf(ada)
    const taken = (takenAt: number, by?: string) => ({
      fingerprint,
      takenAt,
      expiresAt: takenAt + 24 * hour,
      ...(by && { owner: by }),
    })
    harness = await WorkerStateHarness.start({ persist: dir })
    const keys = harness.idempotencyStore(object)
    // Sent and logged, then the isolate ended before keeping the answer.
    await keys.take('sent', taken(now, owner))
    await harness.mailLog(object).insert({ ...ada, output }, owner)
    // Never logged (its outcome is unknown), and taken by a release before keys had owners.
    await keys.take('unknown', { ...taken(now, owner), fingerprint: 'another body' })
    await keys.take('ownerless', taken(now))
    await harness.dispose()

    harness = await WorkerStateHarness.start({ persist: dir })
    const restarted = harness.idempotencyStore(object)
    expect((await restarted.unanswered(Date.now(), 10)).map(({ key }) => key).sort()).toEqual([
      'ownerless',
      'unknown',
    ])
    expect((await restarted.take('sent', taken(now + 1)))?.answer).toEqual({
      status: 201,
      body: JSON.stringify(output),
    })
  })
})
