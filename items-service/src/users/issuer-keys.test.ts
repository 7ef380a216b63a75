import { beforeEach, describe, expect, it } from 'vitest'
import { TestIssuer, testAudience, testIssuer } from '../../test/support/test-issuer.js'
import { maxAgeOf } from './key-set-response.js'
import { tokenVerifier } from './token-verifier.js'

let issuer: TestIssuer
let clock: number
const verifierFor = (options: { timeoutMs?: number; jwksUrl?: string } = {}) =>
  tokenVerifier({
    issuer: testIssuer,
    audience: testAudience,
    fetch: issuer.fetch,
    now: () => clock,
    ...options,
  })
beforeEach(async () => {
  issuer = await TestIssuer.start()
  clock = Date.now()
})

describe("the issuer's key set", () => {
  it('is fetched once, then kept for the age its Cache-Control names', async () => {
    issuer.cacheControl = 'public, max-age=300'
    const verify = verifierFor()
    for (let i = 0; i < 20; i++) await verify(await issuer.token('alice'))
    expect(issuer.keySetFetches).toBe(1)
    clock += 299_000
    await verify(await issuer.token('alice'))
    expect(issuer.keySetFetches).toBe(1)
    clock += 2_000
    // Stale: the token verifies under the cached keys, and the set is fetched again behind it.
    expect((await verify(await issuer.token('alice'))).ok).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(issuer.keySetFetches).toBe(2)
  })

  it('holds Cache-Control within bounds: a minute at least, a day at most', () => {
    const bounds = { minMs: 60_000, maxMs: 86_400_000, defaultMs: 600_000 }
    expect(maxAgeOf('max-age=0', bounds)).toBe(60_000)
    expect(maxAgeOf('no-store', bounds)).toBe(60_000)
    expect(maxAgeOf('max-age=31536000', bounds)).toBe(86_400_000)
    expect(maxAgeOf('public, max-age=3600', bounds)).toBe(3_600_000)
    expect(maxAgeOf(null, bounds)).toBe(600_000)
    expect(maxAgeOf('max-age=nonsense', bounds)).toBe(600_000)
  })

  it('is fetched again for a token of a new kid: a rotated key verifies', async () => {
    const verify = verifierFor()
    await verify(await issuer.token('alice'))
    await issuer.rotate()
    clock += 30_000
    expect(await verify(await issuer.token('alice'))).toEqual({ ok: true, subject: 'alice' })
    expect(issuer.keySetFetches).toBe(2)
    // Discovery is not read again: its jwks_uri is known.
    expect(issuer.fetched.filter((url) => url.includes('openid-configuration'))).toHaveLength(1)
  })

  it('is fetched at most once an interval, however many unknown kids arrive', async () => {
    const verify = verifierFor()
    await verify(await issuer.token('alice'))
    const flood = await Promise.all(
      Array.from({ length: 200 }, async (_, i) =>
        verify(await issuer.token('x', {}, { kid: `k${i}` })),
      ),
    )
    expect(flood.every((verdict) => !verdict.ok && verdict.status === 401)).toBe(true)
    clock += 30_000
    const second = await Promise.all(
      Array.from({ length: 200 }, async (_, i) =>
        verify(await issuer.token('x', {}, { kid: `j${i}` })),
      ),
    )
    expect(second.every((verdict) => !verdict.ok)).toBe(true)
    // The first fetch, one more after the interval: concurrent tokens share it.
    expect(issuer.keySetFetches).toBe(2)
  })

  it('keeps verifying tokens of cached keys while the issuer is down', async () => {
    const verify = verifierFor()
    await verify(await issuer.token('alice'))
    issuer.mode = 'down'
    clock += 86_400_000 * 2
    const seconds = Math.floor(clock / 1000)
    const token = await issuer.token('alice', { iat: seconds, exp: seconds + 300 })
    expect(await verify(token)).toEqual({ ok: true, subject: 'alice' })
    expect(await verify(token)).toEqual({ ok: true, subject: 'alice' })
  })

  it('answers 503 for a kid it cannot learn while the issuer is down', async () => {
    const verify = verifierFor()
    await verify(await issuer.token('alice'))
    await issuer.rotate()
    issuer.mode = 'down'
    clock += 30_000
    const verdict = await verify(await issuer.token('alice'))
    expect(verdict).toEqual({
      ok: false,
      status: 503,
      reason: expect.stringMatching(/^the issuer's keys cannot be fetched now \(.*failed\)/),
    })
    // Within the interval the next one does not fetch, and is told the same.
    expect(await verify(await issuer.token('alice'))).toMatchObject({ status: 503 })
    // The first fetch and the one that failed.
    expect(issuer.keySetFetches).toBe(2)
    // Up again, after the interval: the new key is learnt.
    issuer.mode = 'up'
    clock += 30_000
    expect(await verify(await issuer.token('alice'))).toEqual({ ok: true, subject: 'alice' })
  })

  it('answers 503 when the issuer has never answered', async () => {
    issuer.mode = 'down'
    expect(await verifierFor()(await issuer.token('alice'))).toMatchObject({ status: 503 })
  })

  it('gives up on a slow issuer at its deadline', async () => {
    issuer.mode = { delayMs: 5_000 }
    const started = performance.now()
    const verdict = await verifierFor({ timeoutMs: 200 })(await issuer.token('alice'))
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(verdict).toMatchObject({
      status: 503,
      reason: expect.stringContaining('did not answer within 200 ms'),
    })
  })

  it('reads ITEMS_JWKS_URL without discovery', async () => {
    const verify = verifierFor({ jwksUrl: `${testIssuer}/jwks` })
    expect((await verify(await issuer.token('alice'))).ok).toBe(true)
    expect(issuer.fetched).toEqual([`${testIssuer}/jwks`])
  })
})
