import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { bucketsFor } from '../rate-limits/buckets.js'
import { keyDigest, recordReader } from './key-owner.js'

describe('keyDigest', () => {
  it('is the first 16 bytes of the SHA-256 of the key, in hex', async () => {
    const sha256 = createHash('sha256').update('my-mail-api-key-1').digest('hex')
    expect(await keyDigest('my-mail-api-key-1')).toBe(sha256.slice(0, 32))
  })

  it("is what the key's rate limit counts under: one digest for one key", async () => {
    const limit = { count: 1, windowMs: 1_000 }
    const digest = await keyDigest('my-mail-api-key-1')
    const buckets = bucketsFor(
      { email: 'a@b.c', keyDigest: digest },
      { perRecipient: null, perKey: limit },
    )
    expect(buckets).toEqual([{ key: `key:${digest}`, limit }])
  })
})

describe('recordReader', () => {
  it('gives a key its own records: those filed under its digest', async () => {
    const readerOf = recordReader(['operator-mail-api-key'])
    expect(await readerOf('key-one')).toEqual({ owner: await keyDigest('key-one') })
  })

  it('gives an admin key every record', async () => {
    expect(
      await recordReader(['operator-mail-api-key', 'other-operator-api-key'])(
        'other-operator-api-key',
      ),
    ).toEqual({ owner: undefined })
  })

  it('gives no key every record when there is no admin key', async () => {
    expect(await recordReader([])('')).toEqual({ owner: await keyDigest('') })
  })
})
