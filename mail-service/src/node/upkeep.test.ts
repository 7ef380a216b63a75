import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fingerprintOf, type IdempotencyRecord } from '../ports/idempotency-store.js'
import type { MailLogEntry } from '../ports/mail-log.js'
import { EmbeddedStores } from '../stores/embedded/embedded-stores.js'
import { keepStoresTidy } from './upkeep.js'

const hour = 3_600_000
const owner = 'a'.repeat(64)
const ada = { email: 'ada@example.com', name: 'Ada' }
const output = { id: '<20261206120000.3@mg.example.com>', message: 'Queued. Thank you.' }
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mail-upkeep-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const taken = async (takenAt: number, by?: string): Promise<IdempotencyRecord> => ({
  fingerprint: await fingerprintOf(ada),
  takenAt,
  expiresAt: takenAt + 24 * hour,
  ...(by && { owner: by }),
})

/** What a process killed between logging its sends and keeping their answers leaves behind. */
async function leaveMidSend(keys: [string, IdempotencyRecord][], logged: [MailLogEntry, string][]) {
  const stores = new EmbeddedStores(dir)
  const idempotency = await stores.idempotency()
  for (const [key, record] of keys) await idempotency.take(key, record)
  const mailLog = await stores.open<MailLogEntry>('maillog')
  for (const [entry, by] of logged) await mailLog.insert(entry, by)
  await stores.close()
}

/** The next start's first upkeep run, and the answers the keys then hold. */
async function startAgain(keys: string[]) {
  const stores = new EmbeddedStores(dir)
  const lines: string[] = []
  const idempotency = await stores.idempotency()
  const stop = await keepStoresTidy({
    mailLog: await stores.open<MailLogEntry>('maillog'),
    idempotency,
    counter: await stores.sendCounter(),
    retentionDays: 90,
    giveUpMs: 30_000,
    log: (line) => lines.push(line),
  })
  stop()
  const later = await taken(Date.now() + 1)
  const answers = []
  for (const key of keys) answers.push((await idempotency.take(key, later))?.answer)
  await stores.close()
  return { lines, answers }
}

describe('the upkeep at start, over keys left mid-send', () => {
  it('completes a key whose send its owner logged, with the answer the send got', async () => {
    await leaveMidSend([['sent', await taken(Date.now(), owner)]], [[{ ...ada, output }, owner]])
    const { lines, answers } = await startAgain(['sent'])
    expect(lines).toContain(
      'upkeep: completed 1 idempotency key(s) left mid-send, from the mail log',
    )
    expect(answers).toEqual([{ status: 201, body: JSON.stringify(output) }])
  })

  it("keeps its 202 for a send whose provider's answer could not be read", async () => {
    const unreadable = { status: 200, unreadable: 'its answer is empty' }
    await leaveMidSend(
      [['sent', await taken(Date.now(), owner)]],
      [[{ ...ada, output: unreadable }, owner]],
    )
    const { answers } = await startAgain(['sent'])
    expect(answers[0]?.status).toBe(202)
    expect(JSON.parse(answers[0]?.body ?? '{}').message).toMatch(/^sent: .*its answer is empty/)
  })

  it("leaves a key alone when only another key's sends, or older ones, hold its body", async () => {
    await leaveMidSend(
      [
        ['other-owner', await taken(Date.now(), 'b'.repeat(64))],
        // Taken an hour after the send its body matches: not that key's send.
        ['older', await taken(Date.now() + hour, owner)],
        ['ownerless', await taken(Date.now())],
      ],
      [[{ ...ada, output }, owner]],
    )
    const { lines, answers } = await startAgain(['other-owner', 'older', 'ownerless'])
    expect(lines.filter((line) => line.includes('completed'))).toEqual([])
    expect(answers).toEqual([undefined, undefined, undefined])
  })
})
