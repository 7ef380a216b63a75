import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EmbeddedEnv } from '@movies-and-mail/embedded-store'
import { describeMailEventsContract } from '../../../test/contracts/mail-events.contract.js'
import { EmbeddedMailEvents } from './embedded-mail-events.js'

describeMailEventsContract('embedded (LMDB)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mailevents-'))
  let env = await EmbeddedEnv.open(dir, 'mail-service')
  return {
    events: new EmbeddedMailEvents(env),
    reopen: async () => {
      await env.close()
      env = await EmbeddedEnv.open(dir, 'mail-service')
      return new EmbeddedMailEvents(env)
    },
    cleanup: async () => {
      await env.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
})
