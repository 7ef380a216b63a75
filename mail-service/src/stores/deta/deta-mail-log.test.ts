import { DetaBaseStandIn } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { describeMailLogContract } from '../../../test/contracts/mail-log.contract.js'
import type { MailLogEntry } from '../../ports/mail-log.js'
import { DetaMailLog } from './deta-mail-log.js'

const projectKey = 'a0abc123_secretPart'

const deta = DetaBaseStandIn.forEachTest()

let baseCount = 0
describeMailLogContract('Deta Base (deta SDK over https)', async () => {
  const baseName = `maillog${++baseCount}`
  const open = async () =>
    new DetaMailLog<MailLogEntry>({ projectKey, host: deta.host, baseName, retentionDays: 30 })
  return {
    log: await open(),
    reopen: open,
    expiresItself: 'the Base expires each record itself (__expires, set on insert)',
    cleanup: async () => {},
  }
})

describe('DetaMailLog', () => {
  it('sends the SDK request the Deta Base API expects: path, X-API-Key, item with key', async () => {
    const log = new DetaMailLog({ projectKey, host: deta.host, baseName: 'maillog' })
    const stored = await log.insert({ email: 'ada@example.com', name: 'Ada', output: { id: 'x' } })
    expect(deta.requests).toEqual([
      {
        method: 'POST',
        host: deta.host,
        path: '/v1/a0abc123/maillog/items',
        apiKey: projectKey,
        body: {
          item: { email: 'ada@example.com', name: 'Ada', output: { id: 'x' }, key: stored._id },
        },
      },
    ])
    expect(deta.items('maillog').at(-1)).toEqual({
      ...stored,
      _id: undefined,
      key: stored._id,
    })
  })

  it('asks for the newest first when listing', async () => {
    const log = new DetaMailLog({ projectKey, host: deta.host, baseName: 'maillog' })
    await log.list({ limit: 5 })
    expect(deta.requests[0]).toMatchObject({
      path: '/v1/a0abc123/maillog/query',
      body: { query: [], sort: 'desc' },
    })
  })

  it("keeps the owner in the item, and asks the Base for one owner's records by the field", async () => {
    const log = new DetaMailLog({ projectKey, host: deta.host, baseName: 'maillog' })
    const owner = '1f'.repeat(16)
    const stored = await log.insert({ email: 'ada@example.com' }, owner)
    expect(deta.items('maillog')).toEqual([{ email: 'ada@example.com', owner, key: stored._id }])
    deta.requests.length = 0
    expect(await log.list({ limit: 5, owner })).toEqual([stored])
    expect(deta.requests).toEqual([
      expect.objectContaining({
        path: '/v1/a0abc123/maillog/query',
        body: expect.objectContaining({ query: [{ owner }], sort: 'desc' }),
      }),
    ])
  })

  it('rejects when the host answers with an error, and when nothing listens', async () => {
    const log = new DetaMailLog({ projectKey, host: deta.host, baseName: 'maillog' })
    deta.failing.add('maillog')
    await expect(log.insert({ any: 1 })).rejects.toThrow('failing on purpose')
    await expect(log.ping()).rejects.toThrow()
    const nowhere = new DetaMailLog({ projectKey, host: 'localhost:1', baseName: 'maillog' })
    await expect(nowhere.insert({ any: 1 })).rejects.toThrow()
  })

  it('has the Base expire each record `retentionDays` after its insert', async () => {
    const log = new DetaMailLog({
      projectKey,
      host: deta.host,
      baseName: 'expiring',
      retentionDays: 30,
    })
    const from = Math.floor(Date.now() / 1000) + 30 * 86_400
    const stored = await log.insert({ email: 'ada@example.com' })
    const to = Math.ceil(Date.now() / 1000) + 30 * 86_400
    const [request] = deta.requests
    const sent = (request?.body as { item: Record<string, unknown> } | undefined)?.item ?? {}
    expect(sent).toEqual({
      email: 'ada@example.com',
      key: stored._id,
      __expires: expect.any(Number),
    })
    expect(sent.__expires).toBeGreaterThanOrEqual(from)
    expect(sent.__expires).toBeLessThanOrEqual(to)
    expect(stored).toEqual({ email: 'ada@example.com', _id: stored._id })
    expect(await log.list({ limit: 1 })).toEqual([stored])
  })

  it('prunes nothing itself, and asks the host nothing to prune', async () => {
    const log = new DetaMailLog({ projectKey, host: deta.host, baseName: 'maillog' })
    await log.insert({ email: 'ada@example.com' })
    deta.requests.length = 0
    await expect(log.prune(new Date(Date.now() + 86_400_000))).resolves.toBe(0)
    expect(deta.requests).toEqual([])
  })
})
