import type { FlattenedJWSInput, JSONWebKeySet, JWSHeaderParameters } from 'jose'
import { JWKSNoMatchingKey } from 'jose/errors'
import { createLocalJWKSet } from 'jose/jwks/local'
import { keySetOf, maxAgeOf } from './key-set-response.js'

/** A key of the issuer, as jose's `jwtVerify` asks for one. */
type KeyOf = (header?: JWSHeaderParameters, token?: FlattenedJWSInput) => Promise<CryptoKey>

/** The issuer's keys cannot be had now (it does not answer, or answers what is no key set). */
export class KeysUnavailableError extends Error {
  override name = 'KeysUnavailableError'
}

export type IssuerKeysOptions = {
  /** ITEMS_JWT_ISSUER: discovery reads `<issuer>/.well-known/openid-configuration`. */
  issuer: string
  /** ITEMS_JWKS_URL: the key set's URL, with no discovery. */
  jwksUrl?: string | undefined
  /** The deadline of every fetch. */
  timeoutMs?: number
  /** No two fetches of the key set start closer than this, whatever requests arrive. */
  minRefetchMs?: number
  /** The bounds a key set's `Cache-Control: max-age` is held to, and the age without one. */
  maxAge?: { minMs: number; maxMs: number; defaultMs: number }
  fetch?: typeof fetch
  now?: () => number
}

/**
 * The issuer's key set, fetched and cached by this process (or Worker isolate). jose verifies
 * each token against it (`createLocalJWKSet`); the fetching is here because jose's remote set
 * has a fixed age and forgets its keys when a refresh fails, where this one honours the set's
 * `Cache-Control` within bounds and keeps its keys while the issuer is down. A token of an
 * unknown `kid` fetches the set again, but never sooner than `minRefetchMs` after the last
 * fetch began, and concurrent requests share one fetch: however many such tokens arrive, the
 * issuer sees at most one fetch an interval. Every fetch has a deadline (`timeoutMs`).
 */
export class IssuerKeys {
  readonly #options: Required<Omit<IssuerKeysOptions, 'jwksUrl'>>
  readonly #configuredJwksUrl: string | undefined
  /** The configured URL, or the one discovery named (learned again after a failed fetch). */
  #jwksUrl: string | undefined
  #keyOf: KeyOf | undefined
  #fetchedAt = Number.NEGATIVE_INFINITY
  #maxAgeMs = 0
  #attemptedAt = Number.NEGATIVE_INFINITY
  #lastFailure: string | undefined
  #pending: Promise<void> | undefined

  constructor({
    jwksUrl,
    timeoutMs = 5_000,
    minRefetchMs = 30_000,
    maxAge = { minMs: 60_000, maxMs: 86_400_000, defaultMs: 600_000 },
    fetch: fetchWith = (input, init) => fetch(input, init),
    now = Date.now,
    ...rest
  }: IssuerKeysOptions) {
    this.#options = { ...rest, timeoutMs, minRefetchMs, maxAge, fetch: fetchWith, now }
    this.#configuredJwksUrl = jwksUrl
    this.#jwksUrl = jwksUrl
  }

  /** The key a token's header names, for `jwtVerify`: an arrow, since jose calls it unbound. */
  readonly keyFor: KeyOf = async (header, token) => {
    const now = this.#options.now()
    if (this.#keyOf === undefined) await this.#refresh()
    // Stale keys still verify while the set is fetched again, in the background.
    else if (now - this.#fetchedAt > this.#maxAgeMs) void this.#refresh()
    const keyOf = this.#keyOf
    if (keyOf === undefined) throw this.#unavailable()
    try {
      return await keyOf(header, token)
    } catch (error) {
      if (!(error instanceof JWKSNoMatchingKey)) throw error
      // A key the issuer may have added since: fetched again, at most once an interval.
      await this.#refresh()
      if (this.#lastFailure !== undefined) throw this.#unavailable()
      return (this.#keyOf ?? keyOf)(header, token)
    }
  }

  #unavailable() {
    return new KeysUnavailableError(
      `the issuer's keys cannot be fetched now (${this.#lastFailure ?? 'no key set yet'}); try again later`,
    )
  }

  /** One fetch at a time, and none sooner than `minRefetchMs` after the last began. */
  #refresh(): Promise<void> {
    if (this.#pending) return this.#pending
    const now = this.#options.now()
    if (now - this.#attemptedAt < this.#options.minRefetchMs) return Promise.resolve()
    this.#attemptedAt = now
    this.#pending = this.#fetchKeySet().finally(() => {
      this.#pending = undefined
    })
    return this.#pending
  }

  async #fetchKeySet(): Promise<void> {
    try {
      const url = this.#jwksUrl ?? (await this.#discover())
      const response = await this.#get(url)
      const keySet: JSONWebKeySet = keySetOf(await response.json())
      this.#keyOf = createLocalJWKSet(keySet)
      this.#fetchedAt = this.#options.now()
      this.#maxAgeMs = maxAgeOf(response.headers.get('cache-control'), this.#options.maxAge)
      this.#lastFailure = undefined
    } catch (error) {
      this.#lastFailure = error instanceof Error ? error.message : String(error)
      this.#jwksUrl = this.#configuredJwksUrl
    }
  }

  /** The discovery document's `jwks_uri` (OpenID Connect Discovery 1.0 §4), once learned. */
  async #discover(): Promise<string> {
    const { issuer } = this.#options
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`
    const document: unknown = await (await this.#get(url)).json()
    const { issuer: named, jwks_uri: jwksUri } = (document ?? {}) as Record<string, unknown>
    if (named !== issuer) throw new Error(`the discovery document names another issuer`)
    if (typeof jwksUri !== 'string' || !/^https?:\/\//.test(jwksUri)) {
      throw new Error('the discovery document has no jwks_uri')
    }
    this.#jwksUrl = jwksUri
    return jwksUri
  }

  async #get(url: string): Promise<Response> {
    const { timeoutMs, fetch: fetchWith } = this.#options
    let response: Response
    try {
      response = await fetchWith(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'follow',
      })
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError'
      throw new Error(timedOut ? `${url} did not answer within ${timeoutMs} ms` : `${url} failed`)
    }
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    return response
  }
}
