import { fileURLToPath } from 'node:url'
import {
  type BuiltEntry,
  exchange,
  killBuiltEntries,
  rawRequest,
  type WireCase,
  WranglerDev,
} from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'
import { apiKey, differentialCorpus, seeds } from './support/differential-corpus.js'
import { WorkerUnderTest } from './support/worker-under-test.js'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))
const settings = { ITEMS_APIKEY: apiKey }

/** A valid create, the `n`th: it must be answered 201 whatever came before it. */
function validWrite(n: number): Buffer {
  const body = JSON.stringify({ id: `tt-valid-${n}`, name: 'Valid', genre: 'Drama' })
  const headers = {
    host: 'items.test',
    'content-type': 'application/json',
    'x-apikey': apiKey,
    'content-length': String(Buffer.byteLength(body)),
  }
  return rawRequest('POST', '/items', headers, body)
}

/** The valid writes that follow the cases not sent under wrangler dev: they are not there. */
const skippedOnDev = new Set(
  differentialCorpus.flatMap((wireCase, n) =>
    wireCase.notUnderWranglerDev ? [`tt-valid-${n}`] : [],
  ),
)

/** What Node answered, as wrangler dev answers it: without the writes not sent there. */
function withoutSkippedOnDev<T extends { followUp: { body: unknown } | null }>(seen: T): T {
  const { followUp } = seen
  if (!followUp || !Array.isArray(followUp.body)) return seen
  const body = followUp.body.filter((item: { id?: string }) => !skippedOnDev.has(item.id ?? ''))
  return { ...seen, followUp: { ...followUp, body } }
}

/** The `n`th case, then the `n`th valid write, at `url`. */
const exchanged = (url: string, wireCase: WireCase, n: number) =>
  exchange(url, wireCase, validWrite(n), ['_id'])

const create = (url: string, item: object) =>
  fetch(`${url}/items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-apikey': apiKey },
    body: JSON.stringify(item),
  })

describe('the corpus of refusals on Node, on the Worker under Miniflare and under wrangler dev', () => {
  let node: BuiltEntry
  let worker: WorkerUnderTest
  let dev: WranglerDev
  beforeAll(async () => {
    ;[node, worker, dev] = await Promise.all([
      startService({ ...settings, DATA_DIR: await temporaryDataDir() }),
      WorkerUnderTest.start(settings, await temporaryDataDir()),
      WranglerDev.start({ cwd: serviceDir, persistDir: await temporaryDataDir(), vars: settings }),
    ])
    for (const url of [node.url, worker.url, dev.url]) {
      for (const seed of seeds) expect((await create(url, seed)).status).toBe(201)
    }
  }, 90_000)
  afterAll(async () => {
    await Promise.all([worker?.stop(), dev?.stop()])
    await killBuiltEntries()
  })

  it.each(differentialCorpus.map((wireCase, n) => [wireCase.what, wireCase, n] as const))(
    '%s: answered alike, and the valid write after it is 201',
    async (_, wireCase, n) => {
      const onNode = await exchanged(node.url, wireCase, n)
      const onWorker = await exchanged(worker.url, wireCase, n)
      expect(onNode.followUp?.status).toBe(201)
      expect(onWorker).toEqual(onNode)
      if (wireCase.notUnderWranglerDev) return
      expect(await exchanged(dev.url, wireCase, n)).toEqual(withoutSkippedOnDev(onNode))
    },
  )

  it('leave the runtime whole: wrangler dev reports no uncaught error and still runs', async () => {
    expect(dev.output).not.toMatch(/Uncaught|restarted|Service Unavailable/)
    expect((await fetch(`${dev.url}/healthz`)).status).toBe(200)
  })

  it('end with the same list everywhere: the seeds and the writes that were valid', async () => {
    const lists = await Promise.all(
      [node.url, worker.url, dev.url].map(async (url) =>
        ((await (await fetch(`${url}/items`)).json()) as { id: string }[]).map(({ id }) => id),
      ),
    )
    expect(lists[0]).toEqual(expect.arrayContaining(['tt-seed', 'tt-bom', 'tt-valid-0']))
    expect(lists[1]).toEqual(lists[0])
    expect(lists[2]).toEqual(lists[0]?.filter((id) => !skippedOnDev.has(id)))
  })
})
