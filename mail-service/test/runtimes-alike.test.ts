import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type BuiltEntry,
  exchange,
  killBuiltEntries,
  rawRequest,
  type WireCase,
  WranglerDev,
} from '@movies-and-mail/test-kit'
import type { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKey, differentialCorpus } from './support/differential-corpus.js'
import { ensureBuilt, startServer } from './support/run-server.js'
import { warmedUp, worker } from './support/worker-under-test.js'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))
/** Outbox mode (no MAIL_APIKEY) on both; a key limit the corpus's sends stay under. */
const settings = { API_KEYS: apiKey, RATE_LIMIT_PER_KEY: '1000/1m' }
/** What a store makes anew on each runtime: the outbox's message id, the records' ids. */
const volatile = ['id', '_id', 'queuedAt']

/** A valid send, the `n`th, to a recipient of its own: it must be answered 201. */
function validSend(n: number): Buffer {
  const body = JSON.stringify({ email: `valid${n}@example.com`, name: 'Valid' })
  const headers = {
    host: 'mail.test',
    'content-type': 'application/json',
    'x-apikey': apiKey,
    'content-length': String(Buffer.byteLength(body)),
  }
  return rawRequest('POST', '/sendmail', headers, body)
}

const exchanged = (url: string, wireCase: WireCase, n: number) =>
  exchange(url, wireCase, validSend(n), volatile)

describe('the corpus of refusals on Node, on the Worker under Miniflare and under wrangler dev', () => {
  let dir: string
  let node: BuiltEntry
  let mf: Miniflare
  let workerUrl: string
  let dev: WranglerDev
  beforeAll(async () => {
    ensureBuilt()
    dir = await mkdtemp(join(tmpdir(), 'mail-alike-'))
    ;[node, mf, dev] = await Promise.all([
      startServer({ ...settings, DATA_DIR: join(dir, 'node') }),
      warmedUp(worker(settings)),
      WranglerDev.start({ cwd: serviceDir, persistDir: join(dir, 'dev'), vars: settings }),
    ])
    workerUrl = String(await mf.ready).replace(/\/$/, '')
  }, 90_000)
  afterAll(async () => {
    await Promise.all([mf?.dispose(), dev?.stop()])
    await killBuiltEntries()
    await rm(dir, { recursive: true, force: true })
  })

  it.each(differentialCorpus.map((wireCase, n) => [wireCase.what, wireCase, n] as const))(
    '%s: answered alike, and the valid send after it is 201',
    async (_, wireCase, n) => {
      const onNode = await exchanged(node.url, wireCase, n)
      expect(onNode.followUp?.status).toBe(201)
      expect(await exchanged(workerUrl, wireCase, n)).toEqual(onNode)
      if (wireCase.notUnderWranglerDev) return
      expect(await exchanged(dev.url, wireCase, n)).toEqual(onNode)
    },
  )

  it('leave the runtime whole: wrangler dev reports no uncaught error and still runs', async () => {
    expect(dev.output).not.toMatch(/Uncaught|restarted|Service Unavailable/)
    expect((await fetch(`${dev.url}/healthz`)).status).toBe(200)
  })

  it('end with the same outbox everywhere', async () => {
    const outboxes = await Promise.all(
      [node.url, workerUrl, dev.url].map(async (url) => {
        const page = await fetch(`${url}/outbox?limit=1000`, { headers: { 'x-apikey': apiKey } })
        return ((await page.json()) as { to: string }[]).map(({ to }) => to)
      }),
    )
    const skipped = differentialCorpus.flatMap((wireCase, n) =>
      wireCase.notUnderWranglerDev ? [`valid${n}@example.com`] : [],
    )
    expect(outboxes[0]).toContain('ada@example.com')
    expect(outboxes[1]).toEqual(outboxes[0])
    expect(outboxes[2]).toEqual(outboxes[0]?.filter((to) => !skipped.includes(to)))
  })
})
