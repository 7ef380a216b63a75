import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { apiKey, appPerTest, sendMail, testApp } from '../../test/support/test-app.js'
import { keyDigest } from '../api-keys/key-owner.js'
import { fingerprintOf, idempotencyKeyTtlMs, scopedKey } from '../ports/idempotency-store.js'
import type { MailLogEntry } from '../ports/mail-log.js'
import { EmbeddedStores } from '../stores/embedded/embedded-stores.js'
import { outcomeUnknown } from './held-key.js'

const queued =
  '{"id":"<20260101120000.5f3c9a1b2d4e6f70@mg.example.com>","message":"Queued. Thank you."}'
const ada = { email: 'ada@example.com', name: 'Ada Lovelace' }
const withKey = (key: string) => ({ 'idempotency-key': key })

const { mailgun } = appPerTest({
  timeoutMs: 5_000,
  reply: () => ({ status: 200, body: queued }),
})

describe('a key its process left without an answer (it ended mid-send)', () => {
  const openLeftKey = async (logged: Record<string, unknown> | undefined) => {
    const dir = await mkdtemp(join(tmpdir(), 'mail-left-key-'))
    const before = new EmbeddedStores(dir)
    const now = Date.now()
    const fingerprint = await fingerprintOf(ada)
    const record = { fingerprint, takenAt: now, expiresAt: now + idempotencyKeyTtlMs }
    const key = await scopedKey(apiKey, 'left')
    expect(await (await before.idempotency()).take(key, record)).toBeNull()
    if (logged) {
      const log = await before.open<MailLogEntry>('maillog')
      await log.insert({ ...ada, output: logged }, await keyDigest(apiKey))
    }
    await before.close()
    const after = new EmbeddedStores(dir)
    const app = await testApp({
      mailgunUrl: mailgun.baseUrl,
      mailLog: await after.open<MailLogEntry>('maillog'),
      idempotency: await after.idempotency(),
    })
    onTestFinished(async () => {
      await app.cleanup()
      await after.close()
      await rm(dir, { recursive: true, force: true })
    })
    return app
  }

  it('is completed from the mail log when its send is there: the answer replayed, not sent', async () => {
    const app = await openLeftKey(JSON.parse(queued))
    const retry = await sendMail(app.app, ada, withKey('left'))
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    expect(await retry.json()).toEqual(JSON.parse(queued))
    expect((await sendMail(app.app, ada, withKey('left'))).status).toBe(201)
    expect(mailgun.requests).toHaveLength(0)
  })

  it('replays the 202 of a logged send whose answer could not be read', async () => {
    const app = await openLeftKey({ status: 200, unreadable: 'its answer is empty' })
    const retry = await sendMail(app.app, ada, withKey('left'))
    expect(retry.status).toBe(202)
    expect(await retry.json()).toEqual({
      message: 'sent: the mail provider took the message (status 200), but its answer is empty',
    })
    expect(mailgun.requests).toHaveLength(0)
  })

  it('answers 409 naming the unknown outcome when its send is not in the log: never sent', async () => {
    const app = await openLeftKey(undefined)
    const retry = await sendMail(app.app, ada, withKey('left'))
    expect(retry.status).toBe(409)
    expect(await retry.json()).toEqual({ error: outcomeUnknown })
    expect(retry.headers.get('retry-after')).toBeNull()
    expect(mailgun.requests).toHaveLength(0)
  })
})
