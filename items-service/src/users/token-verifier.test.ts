import { createHmac } from 'node:crypto'
import { exportSPKI, importJWK, SignJWT, UnsecuredJWT } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import { TestIssuer, testAudience, testIssuer } from '../../test/support/test-issuer.js'
import { tokenVerifier } from './token-verifier.js'

let issuer: TestIssuer
let verify: ReturnType<typeof tokenVerifier>
beforeEach(async () => {
  issuer = await TestIssuer.start()
  verify = tokenVerifier({ issuer: testIssuer, audience: testAudience, fetch: issuer.fetch })
})

const refusedFor = async (token: string) => {
  const verdict = await verify(token)
  if (verdict.ok) throw new Error('the token was taken')
  return verdict
}
const now = () => Math.floor(Date.now() / 1000)

describe('tokenVerifier', () => {
  it("takes a token of the issuer's key for the audience, and says whose it is", async () => {
    expect(await verify(await issuer.token('alice'))).toEqual({ ok: true, subject: 'alice' })
    // An `aud` array holding the audience.
    const token = await issuer.token('bob', { aud: ['other', testAudience] })
    expect(await verify(token)).toEqual({ ok: true, subject: 'bob' })
  })

  it('finds the key set through the discovery document', async () => {
    await verify(await issuer.token('alice'))
    expect(issuer.fetched).toEqual([
      `${testIssuer}/.well-known/openid-configuration`,
      `${testIssuer}/jwks`,
    ])
  })

  it('takes every asymmetric algorithm', async () => {
    for (const alg of ['RS256', 'PS256', 'ES384', 'EdDSA']) {
      await issuer.rotate(alg)
      const fresh = tokenVerifier({
        issuer: testIssuer,
        audience: testAudience,
        fetch: issuer.fetch,
      })
      expect(await fresh(await issuer.token('alice')), alg).toEqual({ ok: true, subject: 'alice' })
    }
  })

  it.each([
    ['expired beyond the skew', { exp: now() - 61 }, 'the token has expired (exp)'],
    ['not valid for another minute', { nbf: now() + 120 }, 'the token is not valid yet (nbf)'],
    ['issued in the future', { iat: now() + 120 }, 'the token was issued in the future (iat)'],
    [
      'of another issuer',
      { iss: 'https://other.example' },
      'the token is from another issuer (iss)',
    ],
    [
      'of an issuer with a trailing slash',
      { iss: `${testIssuer}/` },
      'the token is from another issuer (iss)',
    ],
    ['for another audience', { aud: 'other' }, 'the token is for another audience (aud)'],
    ['without a subject', { sub: undefined }, 'the token names no subject (sub)'],
    ['without an expiry', { exp: undefined }, 'the token has no valid expiry (exp)'],
  ])('refuses a token %s, naming why', async (_, claims, reason) => {
    expect(await refusedFor(await issuer.token('alice', claims))).toEqual({
      ok: false,
      status: 401,
      reason,
    })
  })

  it('allows 60 s of clock skew', async () => {
    const token = await issuer.token('alice', { exp: now() - 50, nbf: now() + 50, iat: now() + 50 })
    expect(await verify(token)).toEqual({ ok: true, subject: 'alice' })
  })

  it('refuses alg none, and fetches no key for it', async () => {
    const unsigned = new UnsecuredJWT({ iss: testIssuer, aud: testAudience, sub: 'alice' })
      .setExpirationTime('5m')
      .encode()
    expect((await refusedFor(unsigned)).reason).toMatch(/algorithm is not allowed/)
    expect(issuer.fetched).toEqual([])
  })

  it('refuses HS256 "signed" with the public key as the secret', async () => {
    await issuer.rotate('RS256')
    const publicKey = await importJWK(issuer.newest.publicJwk, 'RS256')
    if (publicKey instanceof Uint8Array) throw new Error('not a public key')
    const pem = await exportSPKI(publicKey)
    const secret = new TextEncoder().encode(pem)
    const forged = await new SignJWT({ sub: 'mallory', iss: testIssuer, aud: testAudience })
      .setProtectedHeader({ alg: 'HS256', kid: issuer.newest.kid })
      .setExpirationTime('5m')
      .sign(secret)
    expect((await refusedFor(forged)).reason).toMatch(/algorithm is not allowed/)
    // The same with the JWK's text as the secret, signed by hand: still refused by its alg.
    const [header, payload] = forged.split('.')
    const mac = createHmac('sha256', JSON.stringify(issuer.newest.publicJwk))
      .update(`${header}.${payload}`)
      .digest('base64url')
    expect((await refusedFor(`${header}.${payload}.${mac}`)).reason).toMatch(/not allowed/)
  })

  it('refuses a token whose signature does not verify', async () => {
    const token = await issuer.token('alice')
    const [header, , signature] = token.split('.')
    const payload = Buffer.from(
      JSON.stringify({ iss: testIssuer, aud: testAudience, sub: 'admin', exp: now() + 300 }),
    ).toString('base64url')
    expect(await refusedFor(`${header}.${payload}.${signature}`)).toMatchObject({
      status: 401,
      reason: "the token's signature does not verify",
    })
  })

  it('refuses what is no JWT, without quoting it', async () => {
    for (const junk of ['abc', 'a.b.c', 'e30.e30.', `${'x'.repeat(40)}.secret-part.sig`]) {
      const verdict = await refusedFor(junk)
      expect(verdict.status).toBe(401)
      expect(verdict.reason).not.toContain('secret-part')
    }
  })

  it('refuses a token signed by a key the issuer never published', async () => {
    const other = await TestIssuer.start()
    const verdict = await refusedFor(await other.token('alice', {}, { kid: issuer.newest.kid }))
    expect(verdict).toMatchObject({ status: 401, reason: "the token's signature does not verify" })
  })
})
