import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { movies, useTestApp } from '../test/support/test-app.js'
import { TestIssuer, testAudience, testIssuer } from '../test/support/test-issuer.js'
import { issuerUsers } from './users/issuer-users.js'

let issuer: TestIssuer
beforeEach(async () => {
  issuer = await TestIssuer.start()
})
/** The users of a fresh issuer: a verifier for each test, its keys the test's own. */
const users = () =>
  issuerUsers(
    { issuer: testIssuer, audience: testAudience, jwksUrl: undefined },
    { fetch: (input, init) => issuer.fetch(input, init), timeoutMs: 300 },
  )
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('writes with an OpenID issuer set (ITEMS_JWT_ISSUER)', () => {
  const api = useTestApp(() => ({
    users: users(),
    apiKey: 'operator-api-key-1',
    corsOrigins: ['https://app.example'],
  }))

  it("takes a write with a user's token, and keeps reads public", async () => {
    const token = await issuer.token('alice')
    expect((await api().post(movies.shawshank, bearer(token))).status).toBe(201)
    expect((await api().put(movies.shawshank.id, { genre: 'X' }, bearer(token))).status).toBe(200)
    expect((await api().request('/items')).status).toBe(200)
    expect((await api().delete(movies.shawshank.id, bearer(token))).status).toBe(200)
  })

  it('answers a write without a token 401 with the realm, from any origin', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { origin: 'https://app.example' },
      { authorization: 'Basic YTpi' },
    ]
    for (const headers of attempts) {
      const response = await api().post(movies.shawshank, headers)
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="items-service"')
      expect(await response.json()).toEqual({
        error: "a write needs a signed-in user's token (Authorization: Bearer) or x-apikey",
      })
    }
    expect(await api().list()).toEqual([])
  })

  it('answers a bad token 401 invalid_token with the reason, never quoting the token', async () => {
    const token = await issuer.token('alice', { exp: Math.floor(Date.now() / 1000) - 3600 })
    for (const send of [
      () => api().post(movies.shawshank, bearer(token)),
      () => api().put(movies.shawshank.id, { name: 'X' }, bearer(token)),
      () => api().delete(movies.shawshank.id, bearer(token)),
    ]) {
      const response = await send()
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer realm="items-service", error="invalid_token", error_description="the token has expired (exp)"',
      )
      const text = await response.text()
      expect(JSON.parse(text)).toEqual({ error: 'invalid token: the token has expired (exp)' })
      expect(text).not.toContain(token.split('.')[1])
    }
    expect(await api().list()).toEqual([])
  })

  it('refuses an Authorization over 8 KiB with 431 before reading it', async () => {
    const long = `Bearer ${'a'.repeat(8200)}`
    const refused = await api().expectRefused(
      () => api().post(movies.shawshank, { authorization: long }),
      431,
    )
    expect(refused).toEqual({ error: 'Authorization is longer than 8192 bytes' })
    expect(issuer.fetched).toEqual([])
  })

  it('does not take a token from the query string', async () => {
    const token = await issuer.token('alice')
    for (const name of ['access_token', 'token']) {
      const response = await api().request(`/items?${name}=${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(movies.shawshank),
      })
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="items-service"')
    }
  })

  it('still takes the API key for every write, and judges a wrong key alone', async () => {
    const key = { 'x-apikey': 'operator-api-key-1' }
    expect((await api().post(movies.shawshank, key)).status).toBe(201)
    const token = await issuer.token('alice')
    const wrongKey = { 'x-apikey': 'guess', ...bearer(token) }
    await api().expectRefused(() => api().post(movies.godfather, wrongKey), 401)
    expect((await api().delete(movies.shawshank.id, key)).status).toBe(200)
  })

  it('answers 503 for a kid it cannot learn while the issuer is down, storing nothing', async () => {
    issuer.mode = 'down'
    const refused = await api().expectRefused(
      async () => api().post(movies.shawshank, bearer(await issuer.token('alice'))),
      503,
    )
    expect(refused.error).toMatch(/^the issuer's keys cannot be fetched now/)
  })

  it('lets preflights of any origin ask for Authorization', async () => {
    const response = await api().request('/items', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization')
    expect(response.headers.get('access-control-allow-methods')).toContain('POST')
  })
})

describe('the OpenAPI document with an issuer set', () => {
  const withUsers = useTestApp(() => ({ users: users() }))
  const withBoth = useTestApp(() => ({ users: users(), apiKey: 'users-test-api-key' }))
  const document = async (api: typeof withUsers) =>
    (await api().request('/openapi.json')).json() as Promise<{
      paths: Record<string, Record<string, { security?: object[]; responses: object }>>
      components: { securitySchemes: object }
    }>

  it('declares the bearer scheme beside the key, on every write and no read', async () => {
    const { paths, components } = await document(withBoth)
    expect(components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'x-apikey' },
      BearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    })
    for (const [path, method] of [
      ['/items', 'post'],
      ['/items/{id}', 'put'],
      ['/items/{id}', 'delete'],
    ] as const) {
      const operation = paths[path]?.[method]
      expect(operation?.security).toEqual([{ ApiKey: [] }, { BearerToken: [] }])
      expect(Object.keys(operation?.responses ?? {})).toEqual(
        expect.arrayContaining(['401', '403', '431']),
      )
    }
    expect(paths['/items']?.get?.security).toEqual([])
    const users = await document(withUsers)
    expect(users.paths['/items']?.post?.security).toEqual([{ BearerToken: [] }])
  })
})

describe('an issuer whose key set never answers, under the default deadline', () => {
  // No deadline given: the service's own, 5 s. The deadline's timer (AbortSignal.timeout) runs
  // on the test's fake clock, so the test sees it fire at 5 s without waiting 5 s.
  const api = useTestApp(() => ({
    users: issuerUsers(
      { issuer: testIssuer, audience: testAudience, jwksUrl: undefined },
      { fetch: (input, init) => issuer.fetch(input, init) },
    ),
  }))
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      const controller = new AbortController()
      const reason = new DOMException('The operation timed out.', 'TimeoutError')
      setTimeout(() => controller.abort(reason), ms)
      return controller.signal
    })
  })
  afterEach(() => {
    vi.restoreAllMocks()
    vi.useRealTimers()
  })

  it('refuses a write 503 once 5 s have passed, naming the deadline, and stores nothing', async () => {
    issuer.mode = 'silent'
    const token = await issuer.token('alice')
    let settled = false
    const write = api()
      .post(movies.shawshank, bearer(token))
      .finally(() => {
        settled = true
      })
    await vi.advanceTimersByTimeAsync(4_999)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const response = await write
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('30')
    expect(await response.json()).toEqual({
      error: `the issuer's keys cannot be fetched now (${testIssuer}/.well-known/openid-configuration did not answer within 5000 ms); try again later`,
    })
    expect(await (await api().request('/items')).json()).toEqual([])
  })
})
