import { DetaBaseStandIn } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { describeMailEventsContract } from '../../../test/contracts/mail-events.contract.js'
import { DetaMailEvents } from './deta-mail-events.js'

const projectKey = 'a0abc123_secretPart'
const deta = DetaBaseStandIn.forEachTest()
const open = async () => new DetaMailEvents({ projectKey, host: deta.host, retentionDays: 30 })

describeMailEventsContract('Deta Base (deta SDK over https)', async () => ({
  events: await open(),
  other: await open(),
  reopen: open,
  expiresItself: 'the Base expires each event itself (__expires, set on insert)',
  cleanup: async () => {},
}))

describe('DetaMailEvents', () => {
  it('keeps an event under its id with the message it is about, and an expiry', async () => {
    const events = await open()
    const event = {
      id: 'MXcc2gEpS-eN8HfkOnmK2w',
      event: 'delivered' as const,
      at: '2026-02-03T19:20:31.659Z',
    }
    await events.file('20260203.1@mg.example.com', event)
    expect(deta.items('mailevents')).toEqual([
      expect.objectContaining({
        key: 'MXcc2gEpS-eN8HfkOnmK2w',
        messageId: '20260203.1@mg.example.com',
        event: 'delivered',
        at: '2026-02-03T19:20:31.659Z',
        __expires: expect.any(Number),
      }),
    ])
  })
})
