import type { Document } from 'mongodb'
import { describe, expect, it } from 'vitest'
import { pick, useStandInState } from '../../../test/support/mongo-stand-in-state.js'
import type { Bucket } from '../../ports/send-counter.js'
import { gcraTake } from '../../rate-limits/gcra.js'
import { takePipeline } from './mongo-send-counter.js'

const { open, standIn } = useStandInState()
const now = Date.parse('2026-11-23T12:00:00Z')
const perRecipient: Bucket = { key: 'to:ada@example.com', limit: { count: 3, windowMs: 3_600_000 } }
const perKey: Bucket = { key: 'key:abc', limit: { count: 60, windowMs: 60_000 } }

describe('MongoSendCounter, as the server sees it', () => {
  it('creates the TTL index on expiresAt when opened', async () => {
    await (await open()).sendCounter()
    expect(pick(standIn().received('createIndexes')[0], 'createIndexes', 'indexes')).toEqual({
      createIndexes: 'send_counts',
      indexes: [{ key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 }],
    })
  })

  it('counts a send with one findAndModify a bucket: the GCRA pipeline, upserted, the TAT before', async () => {
    const counter = await (await open()).sendCounter()
    expect(await counter.take([perRecipient, perKey], now)).toEqual({ admitted: true })
    const sent = standIn().received('findAndModify')
    expect(sent.map((command) => pick(command, 'findAndModify', 'query', 'upsert', 'new'))).toEqual(
      [perRecipient, perKey].map((bucket) => ({
        findAndModify: 'send_counts',
        query: { _id: bucket.key },
        upsert: true,
        new: false,
      })),
    )
    expect(sent[0]?.update).toEqual([
      {
        $set: {
          tat: {
            $cond: [
              {
                $lte: [
                  {
                    $subtract: [
                      { $subtract: [{ $max: [{ $ifNull: ['$tat', now] }, now] }, now] },
                      2_400_000,
                    ],
                  },
                  0,
                ],
              },
              { $add: [{ $max: [{ $ifNull: ['$tat', now] }, now] }, 1_200_000] },
              '$tat',
            ],
          },
        },
      },
      { $set: { expiresAt: { $add: ['$$NOW', { $subtract: ['$tat', now] }] } } },
    ])
  })

  it('refuses by the TAT the server found, and gives back the buckets taken before', async () => {
    const counter = await (await open()).sendCounter()
    standIn().replyNext('findAndModify', { ok: 1, value: null })
    standIn().replyNext('findAndModify', { ok: 1, value: { _id: perKey.key, tat: now + 60_000 } })
    expect(await counter.take([perRecipient, perKey], now)).toEqual({
      admitted: false,
      bucket: perKey.key,
      retryAfterMs: 1_000,
    })
    const [giveBack] = standIn().received('update')
    expect(giveBack?.updates).toEqual([
      expect.objectContaining({
        q: { _id: perRecipient.key },
        u: [
          { $set: { tat: { $subtract: ['$tat', 1_200_000] } } },
          { $set: { expiresAt: { $add: ['$$NOW', { $subtract: ['$tat', now] }] } } },
        ],
      }),
    ])
    expect(giveBack?.updates[0].upsert).not.toBe(true)
  })

  it('gives back only the buckets whose interval has not passed since the take', async () => {
    const counter = await (await open()).sendCounter()
    // A second after the take: the per-key interval (1 s) is over, the per-recipient one not.
    await counter.giveBack([perRecipient, perKey], now, now + 1_000)
    expect(
      standIn()
        .received('update')
        .flatMap(({ updates }) => updates),
    ).toEqual([expect.objectContaining({ q: { _id: perRecipient.key } })])
  })
})

describe('takePipeline', () => {
  /** What the server makes of the pipeline on `stored` (undefined: no document, an upsert). */
  const run = (pipeline: Document[], stored: Document | undefined, dbNow: Date) => {
    let document: Document = { ...stored }
    for (const stage of pipeline) {
      const fields = Object.entries(stage.$set as Document)
      const values = fields.map(([name, expression]) => [
        name,
        evaluate(expression, document, dbNow),
      ])
      document = { ...document, ...Object.fromEntries(values) }
    }
    return document
  }

  it('decides every send as gcraTake does, and expires the bucket when it is empty again', () => {
    const limits = [
      { count: 3, windowMs: 3_600_000 },
      { count: 7, windowMs: 3_600_000 },
      { count: 1, windowMs: 1_000 },
      { count: 60, windowMs: 60_000 },
    ]
    const dbNow = new Date(now + 12_345)
    for (const limit of limits) {
      const bucket = { key: 'b', limit }
      let tat: number | undefined
      for (let step = 0; step < 40; step++) {
        const at = now + step * 97_003
        const expected = gcraTake(tat, limit, at)
        const after = run(takePipeline(bucket, at), tat === undefined ? undefined : { tat }, dbNow)
        expect(after.tat).toBe(expected.admitted ? expected.tat : tat)
        expect(after.expiresAt).toEqual(new Date(dbNow.getTime() + (after.tat - at)))
        tat = after.tat
      }
    }
  })
})

/** The few aggregation operators the pipelines use, as the server evaluates them. */
function evaluate(expression: unknown, document: Document, dbNow: Date): unknown {
  if (typeof expression === 'number') return expression
  if (expression === '$$NOW') return dbNow
  if (typeof expression === 'string' && expression.startsWith('$')) {
    return document[expression.slice(1)] ?? null
  }
  const [[operator, args]] = Object.entries(expression as Document) as [[string, unknown[]]]
  const values = args.map((arg) => evaluate(arg, document, dbNow))
  const [a, b, c] = values as [number, number, unknown]
  const asNumber = (value: unknown) => (value instanceof Date ? value.getTime() : Number(value))
  switch (operator) {
    case '$ifNull':
      return a ?? b
    case '$max':
      return Math.max(a, b)
    case '$lte':
      return a <= b
    case '$cond':
      return a ? b : c
    case '$subtract':
      return a - b
    case '$add':
      return values.some((value) => value instanceof Date)
        ? new Date(asNumber(a) + asNumber(b))
        : a + b
    default:
      throw new Error(`no evaluation for ${operator}`)
  }
}
