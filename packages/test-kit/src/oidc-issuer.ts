import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose'
import Provider from 'oidc-provider'

/** How the issuer answers now: as it should, not at all (connections reset), or late. */
export type IssuerMode = 'up' | 'down' | { delayMs: number }

type SigningKey = { kid: string; privateKey: CryptoKey; privateJwk: JWK }

export type OidcIssuerOptions = {
  /** The audience its access tokens name: the API's resource indicator, an absolute URI. */
  audience: string
  /** The page's client: a public client signing in with PKCE at these redirect URIs. */
  webClient?: { clientId: string; redirectUris: string[] }
  /** How long its access tokens live. */
  accessTokenTtlSeconds?: number
}

/**
 * A real OpenID Provider, node-oidc-provider (certified), on 127.0.0.1 and a free port, as the
 * issuer of the tests: its discovery document, its key set (`/jwks`), its login (the
 * provider's development interactions: any name and password sign in, as `<name>`, named
 * `<name>` with email `<name>@example.test`), and JWT access tokens for
 * `audience` (resource indicators), by client credentials or authorization code with PKCE.
 * Its ES256 keys are made here, so a test can also sign tokens of its own with them (`sign`,
 * jose's `SignJWT`): the bad tokens a real provider never issues. `rotate()` starts a
 * provider with a new key beside the old; `mode` makes it go down or slow; `keySetFetches`
 * counts what it served of its key set.
 */
export class OidcIssuer {
  readonly url: string
  mode: IssuerMode = 'up'
  keySetFetches = 0
  readonly #server: Server
  readonly #options: OidcIssuerOptions
  #keys: SigningKey[] = []
  #provider: Provider | undefined
  #generation = 0

  private constructor(server: Server, url: string, options: OidcIssuerOptions) {
    this.#server = server
    this.url = url
    this.#options = options
  }

  static async start(options: OidcIssuerOptions): Promise<OidcIssuer> {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const issuer = new OidcIssuer(server, `http://127.0.0.1:${port}`, options)
    server.on('request', (request, response) => issuer.#handle(request, response))
    await issuer.rotate()
    return issuer
  }

  /** A new signing key, published beside the ones before it; tokens are signed with it. */
  async rotate(): Promise<string> {
    this.#generation += 1
    const kid = `key-${this.#generation}`
    const { privateKey } = await generateKeyPair('ES256', { extractable: true })
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' }
    this.#keys.unshift({ kid, privateKey, privateJwk })
    this.#provider = this.#makeProvider()
    return kid
  }

  /** The newest key's id. */
  get kid(): string {
    return this.#keys[0]?.kid ?? ''
  }

  /**
   * A token of this issuer signed with its newest key by jose, for `sub`, valid five minutes,
   * `claims` on top and `header` over the protected header.
   */
  async sign(sub: string, claims: JWTPayload = {}, header: { kid?: string } = {}) {
    const key = this.#keys[0]
    if (!key) throw new Error('no key')
    const now = Math.floor(Date.now() / 1000)
    const payload = { iss: this.url, aud: this.#options.audience, sub, iat: now, exp: now + 300 }
    return new SignJWT({ ...payload, ...claims })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid, ...header })
      .sign(key.privateKey)
  }

  /** An access token the provider itself issues, by client credentials: `sub` is the client. */
  async clientToken(): Promise<string> {
    const response = await fetch(`${this.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'test-machine',
        client_secret: 'test-machine-secret',
        resource: this.#options.audience,
        scope: 'items',
      }),
    })
    const answer = (await response.json()) as Record<string, string | undefined>
    if (!answer.access_token) {
      throw new Error(`the provider issued no token: ${answer.error} ${answer.error_description}`)
    }
    return answer.access_token
  }

  stop(): Promise<void> {
    this.#server.closeAllConnections()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }

  #handle(request: IncomingMessage, response: ServerResponse) {
    if (this.mode === 'down') {
      request.socket.destroy()
      return
    }
    if (request.url?.startsWith('/jwks')) this.keySetFetches += 1
    const provider = this.#provider
    const answer = () => provider?.callback()(request, response)
    if (this.mode === 'up') answer()
    else setTimeout(answer, this.mode.delayMs)
  }

  #makeProvider(): Provider {
    const { audience, webClient, accessTokenTtlSeconds = 300 } = this.#options
    const provider = new Provider(this.url, {
      jwks: { keys: this.#keys.map(({ privateJwk }) => privateJwk) },
      enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
      clients: [
        {
          client_id: 'test-machine',
          client_secret: 'test-machine-secret',
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
          id_token_signed_response_alg: 'ES256' as const,
        },
        ...(webClient
          ? [
              {
                client_id: webClient.clientId,
                token_endpoint_auth_method: 'none' as const,
                id_token_signed_response_alg: 'ES256' as const,
                grant_types: ['authorization_code', 'refresh_token'],
                response_types: ['code' as const],
                redirect_uris: webClient.redirectUris,
                post_logout_redirect_uris: webClient.redirectUris,
              },
            ]
          : []),
      ],
      findAccount: (_context, sub) => ({
        accountId: sub,
        claims: () => ({ sub, name: sub, preferred_username: sub, email: `${sub}@example.test` }),
      }),
      claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'] },
      scopes: ['openid', 'profile', 'email', 'items', 'offline_access'],
      cookies: { keys: ['test-cookie-key'] },
      features: {
        devInteractions: { enabled: true },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => audience,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: 'items openid profile',
            audience,
            accessTokenTTL: accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          }),
        },
      },
      ttl: {
        AccessToken: accessTokenTtlSeconds,
        ClientCredentials: accessTokenTtlSeconds,
        IdToken: accessTokenTtlSeconds,
        // A sign-in's steps and the session at the provider: long enough for any test.
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
      },
      // The page's origin differs from the issuer's: its token requests are CORS.
      clientBasedCORS: () => true,
    })
    return provider
  }
}
