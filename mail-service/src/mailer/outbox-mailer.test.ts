import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import { describe, expect, it } from 'vitest'
import { MemoryMailLog } from '../../test/support/memory-stores/memory-mail-log.js'
import { OutboxMailer, type OutboxMessage } from './outbox-mailer.js'

const owner = '1f'.repeat(16)
const mail = { from: 'me@example.com', to: 'ada@example.com', subject: 'Hi', text: 'Hello Ada' }

describe('OutboxMailer', () => {
  it('answers like Mailgun, with an id of the shape <timestamp.hex@outbox.local>', async () => {
    const result = await new OutboxMailer(new MemoryMailLog()).send(mail, owner)
    expect(result.outcome).toBe('sent')
    if (result.outcome !== 'sent') return
    expect(JSON.parse(result.body)).toEqual(result.output)
    expect(result.output).toEqual({
      id: expect.stringMatching(/^<\d{14}\.[0-9a-f]{16}@outbox\.local>$/),
      message: 'Queued. Thank you.',
    })
  })

  it('keeps the message instead of delivering it, under the owner that sent it', async () => {
    const outbox = new OutboxMailer(new MemoryMailLog<OutboxMessage>())
    const result = await outbox.send(mail, owner)
    const [kept] = await outbox.list({ limit: 10, owner })
    expect(kept).toEqual({
      ...mail,
      id: result.outcome === 'sent' ? result.output.id : undefined,
      queuedAt: expect.any(String),
      _id: expect.any(String),
    })
    expect(await outbox.list({ limit: 10, owner: '2e'.repeat(16) })).toEqual([])
  })

  it('rejects with StoreUnavailableError (a 503) when its store refuses the message', async () => {
    const store = new MemoryMailLog<OutboxMessage>()
    store.insert = () => Promise.reject(new Error('the store could not write'))
    await expect(new OutboxMailer(store).send(mail, owner)).rejects.toEqual(
      new StoreUnavailableError('the outbox is unavailable'),
    )
  })

  it('rejects with StoreFullError (a 507) when its store has no space left', async () => {
    const store = new MemoryMailLog<OutboxMessage>()
    store.insert = () => Promise.reject(new StoreFullError())
    await expect(new OutboxMailer(store).send(mail, owner)).rejects.toEqual(
      new StoreFullError('no space left for the outbox'),
    )
  })
})
