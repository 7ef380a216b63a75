import { OidcIssuer } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { tokenVerifier } from './token-verifier.js'

// The verifier against a certified OpenID Provider (node-oidc-provider) on loopback: its
// discovery document, its key set, its own tokens, a rotation and an outage.

const audience = 'https://items.test/api'
let issuer: OidcIssuer
beforeAll(async () => {
  issuer = await OidcIssuer.start({ audience })
})
afterAll(() => issuer.stop())
beforeEach(() => {
  issuer.mode = 'up'
})

describe('tokens of a real OpenID Provider', () => {
  it("verifies the provider's own access token, found through its discovery document", async () => {
    const verify = tokenVerifier({ issuer: issuer.url, audience })
    const token = await issuer.clientToken()
    expect(await verify(token)).toEqual({ ok: true, subject: 'test-machine' })
  })

  it('refuses the same token an hour later: its session has expired', async () => {
    const token = await issuer.clientToken()
    const later = tokenVerifier({ issuer: issuer.url, audience, now: () => Date.now() + 3_600_000 })
    expect(await later(token)).toEqual({
      ok: false,
      status: 401,
      reason: 'the token has expired (exp)',
    })
  })

  it('learns a rotated key when a token names it, fetching the key set once more', async () => {
    let clock = Date.now()
    const verify = tokenVerifier({ issuer: issuer.url, audience, now: () => clock })
    expect((await verify(await issuer.clientToken())).ok).toBe(true)
    const before = issuer.keySetFetches
    const kid = await issuer.rotate()
    const rotated = await issuer.clientToken()
    expect(JSON.parse(Buffer.from(rotated.split('.')[0] ?? '', 'base64url').toString()).kid).toBe(
      kid,
    )
    clock += 30_000
    expect(await verify(rotated)).toEqual({ ok: true, subject: 'test-machine' })
    expect(issuer.keySetFetches).toBe(before + 1)
  })

  it('fetches the key set at most once an interval under a flood of unknown kids', async () => {
    const verify = tokenVerifier({ issuer: issuer.url, audience })
    expect((await verify(await issuer.sign('alice'))).ok).toBe(true)
    const before = issuer.keySetFetches
    const flood = await Promise.all(
      Array.from({ length: 300 }, async (_, n) =>
        verify(await issuer.sign('x', {}, { kid: `forged-${n}` })),
      ),
    )
    expect(flood.every((verdict) => !verdict.ok && verdict.status === 401)).toBe(true)
    expect(issuer.keySetFetches - before).toBeLessThanOrEqual(1)
  })

  it('keeps verifying under cached keys while the provider is down, and 503s an unknown kid', async () => {
    let clock = Date.now()
    const now = () => clock
    const verify = tokenVerifier({ issuer: issuer.url, audience, timeoutMs: 500, now })
    const token = await issuer.sign('alice')
    expect((await verify(token)).ok).toBe(true)
    issuer.mode = 'down'
    expect(await verify(token)).toEqual({ ok: true, subject: 'alice' })
    // Past the interval, so that the unknown kid tries the provider, which does not answer.
    clock += 30_000
    const unknown = await issuer.sign('alice', {}, { kid: 'not-yet-published' })
    expect(await verify(unknown)).toMatchObject({ ok: false, status: 503 })
  })

  it('gives up on a slow provider at the deadline', async () => {
    issuer.mode = { delayMs: 3_000 }
    const verify = tokenVerifier({ issuer: issuer.url, audience, timeoutMs: 300 })
    const started = performance.now()
    expect(await verify(await issuer.sign('alice'))).toMatchObject({ status: 503 })
    expect(performance.now() - started).toBeLessThan(2_500)
  })
})
