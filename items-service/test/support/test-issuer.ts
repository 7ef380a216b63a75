import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose'

/** The issuer's URL the in-process issuer answers for, and the audience its tokens name. */
export const testIssuer = 'https://id.test.example'
export const testAudience = 'items-service'

type SigningKey = { kid: string; alg: string; privateKey: CryptoKey; publicJwk: JWK }

/**
 * An OpenID issuer in the test's own process: key pairs made in the test (jose's
 * `generateKeyPair`), tokens signed with them (`SignJWT`), and a `fetch` that answers its
 * discovery document and key set, for `tokenVerifier`'s `fetch` option. It counts the fetches it
 * sees, and can be down (every fetch fails), slow (answers after `delayMs`), silent (answers
 * nothing, ever: only the fetch's signal ends it) or answer a
 * `Cache-Control` of the test's choosing.
 */
export class TestIssuer {
  readonly fetched: string[] = []
  mode: 'up' | 'down' | 'silent' | { delayMs: number } = 'up'
  cacheControl: string | undefined
  #keys: SigningKey[] = []
  #generation = 0

  static async start(alg = 'ES256'): Promise<TestIssuer> {
    const issuer = new TestIssuer()
    await issuer.rotate(alg)
    return issuer
  }

  /** A new key, published beside the previous one (the previous one goes with `retire`). */
  async rotate(alg = 'ES256'): Promise<string> {
    this.#generation += 1
    const kid = `key-${this.#generation}`
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }
    this.#keys.push({ kid, alg, privateKey, publicJwk })
    return kid
  }

  /** Keeps only the newest key in the key set. */
  retire(): void {
    this.#keys = this.#keys.slice(-1)
  }

  get newest(): SigningKey {
    const key = this.#keys.at(-1)
    if (!key) throw new Error('no key yet')
    return key
  }

  /** A token for `sub`, valid for five minutes, with `claims` on top and the header's `kid`. */
  async token(sub: string, claims: JWTPayload = {}, { kid }: { kid?: string } = {}) {
    const key = this.newest
    const now = Math.floor(Date.now() / 1000)
    return new SignJWT({
      iss: testIssuer,
      aud: testAudience,
      sub,
      iat: now,
      exp: now + 300,
      ...claims,
    })
      .setProtectedHeader({ alg: key.alg, kid: kid ?? key.kid, typ: 'JWT' })
      .sign(key.privateKey)
  }

  /** What the verifier fetches with. */
  readonly fetch: typeof fetch = async (input, init) => {
    const url = String(input)
    this.fetched.push(url)
    if (this.mode === 'down') throw new TypeError('fetch failed')
    if (this.mode === 'silent') {
      await new Promise((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
      })
    }
    if (typeof this.mode === 'object') {
      const { delayMs } = this.mode
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, delayMs)
        init?.signal?.addEventListener('abort', () => {
          clearTimeout(timer)
          reject(init.signal?.reason)
        })
      })
    }
    if (url === `${testIssuer}/.well-known/openid-configuration`) {
      return Response.json({ issuer: testIssuer, jwks_uri: `${testIssuer}/jwks` })
    }
    if (url === `${testIssuer}/jwks`) {
      const headers = this.cacheControl ? { 'cache-control': this.cacheControl } : undefined
      return Response.json({ keys: this.#keys.map((key) => key.publicJwk) }, { headers })
    }
    return new Response('not found', { status: 404 })
  }

  /** How many times the key set was fetched. */
  get keySetFetches(): number {
    return this.fetched.filter((url) => url.endsWith('/jwks')).length
  }
}
