import { createHmac } from 'node:crypto'
import { type BuiltEntry, killBuiltEntries, OidcIssuer } from '@movies-and-mail/test-kit'
import { UnsecuredJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'
import { WorkerUnderTest } from './support/worker-under-test.js'

// Who may write what, with tokens of a real OpenID Provider (and bad ones signed by jose with
// its keys), on the built Node entry and on the built Worker with its Durable Object: the same
// answers, status, body and challenge, on both. Each runtime fetches the key set itself.

const audience = 'https://items.test/api'
const apiKey = 'users-alike-api-key'
const now = () => Math.floor(Date.now() / 1000)
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

let issuer: OidcIssuer
let node: BuiltEntry
let worker: WorkerUnderTest
const targets = () => [node.url, worker.url]

type Sent = { method: string; path: string; headers?: Record<string, string>; body?: object }
/** What a client sees of an answer: its status, its JSON and its challenge. */
async function send(url: string, { method, path, headers = {}, body }: Sent) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body && { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return {
    status: response.status,
    body: text.startsWith('[') ? 'list' : JSON.parse(text),
    challenge: response.headers.get('www-authenticate'),
  }
}
/** Sent to Node and to the Worker: the two answers, which must be equal. */
async function alike(sent: Sent) {
  const [onNode, onWorker] = await Promise.all([send(node.url, sent), send(worker.url, sent)])
  expect(onWorker).toEqual(onNode)
  return onNode
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const item = (id: string) => ({ id, name: `Movie ${id}`, genre: 'Drama' })

beforeAll(async () => {
  issuer = await OidcIssuer.start({ audience })
  const settings = {
    ITEMS_APIKEY: apiKey,
    ITEMS_JWT_ISSUER: issuer.url,
    ITEMS_JWT_AUDIENCE: audience,
  }
  ;[node, worker] = await Promise.all([
    startService({ ...settings, DATA_DIR: await temporaryDataDir() }),
    WorkerUnderTest.start(settings, await temporaryDataDir()),
  ])
}, 90_000)
afterAll(async () => {
  await worker?.stop()
  await killBuiltEntries()
  await issuer?.stop()
})

describe('users with tokens, on Node and on the Worker alike', () => {
  it("stores a user's item as theirs, and the provider's own token writes too", async () => {
    const created = await alike({
      method: 'POST',
      path: '/items',
      headers: bearer(await issuer.sign('alice')),
      body: item('tt-alice'),
    })
    expect(created.status).toBe(201)
    expect(
      (
        await alike({
          method: 'POST',
          path: '/items',
          headers: bearer(await issuer.clientToken()),
          body: item('tt-machine'),
        })
      ).status,
    ).toBe(201)
    for (const url of targets()) {
      const read = await (await fetch(`${url}/items/tt-alice`)).json()
      expect(read).toMatchObject({ _owner: 'alice' })
      const machine = await (await fetch(`${url}/items/tt-machine`)).json()
      expect(machine).toMatchObject({ _owner: 'test-machine' })
    }
  })

  it("refuses another user's PUT and DELETE, and a forged _owner", async () => {
    const bob = bearer(await issuer.sign('bob'))
    const error = { error: "item 'tt-alice' belongs to another user" }
    for (const sent of [
      { method: 'PUT', path: '/items/tt-alice', headers: bob, body: { name: 'Mine' } },
      {
        method: 'PUT',
        path: '/items/tt-alice',
        headers: { ...bob, 'if-match': '*' },
        body: { name: 'X' },
      },
      { method: 'DELETE', path: '/items/tt-alice', headers: bob },
    ]) {
      expect(await alike(sent)).toEqual({ status: 403, body: error, challenge: null })
    }
    const forged = await alike({
      method: 'POST',
      path: '/items',
      headers: bob,
      body: { ...item('tt-forged'), _owner: 'alice' },
    })
    expect(forged.status).toBe(400)
  })

  it('refuses every bad token alike, naming why and never echoing it', async () => {
    const good = await issuer.sign('mallory')
    const [header, payload] = good.split('.')
    const forgedPayload = b64({ iss: issuer.url, aud: audience, sub: 'alice', exp: now() + 300 })
    const hs256Header = b64({ alg: 'HS256', typ: 'JWT', kid: issuer.kid })
    const jwks = await (await fetch(`${issuer.url}/jwks`)).text()
    const hmac = createHmac('sha256', jwks).update(`${hs256Header}.${payload}`).digest('base64url')
    const cases: [string, string, RegExp][] = [
      [
        'alg none',
        new UnsecuredJWT({ iss: issuer.url, aud: audience, sub: 'alice' })
          .setExpirationTime('5m')
          .encode(),
        /algorithm is not allowed/,
      ],
      [
        'HS256 with the public keys as secret',
        `${hs256Header}.${payload}.${hmac}`,
        /algorithm is not allowed/,
      ],
      ['expired', await issuer.sign('mallory', { exp: now() - 120 }), /expired/],
      ['not yet valid', await issuer.sign('mallory', { nbf: now() + 600 }), /not valid yet/],
      [
        'another issuer',
        await issuer.sign('mallory', { iss: 'https://evil.example' }),
        /another issuer/,
      ],
      [
        'another audience',
        await issuer.sign('mallory', { aud: 'https://other.example' }),
        /another audience/,
      ],
      [
        'a signature over another payload',
        `${header}.${forgedPayload}.${good.split('.')[2]}`,
        /signature/,
      ],
    ]
    for (const [what, token, reason] of cases) {
      const answer = await alike({
        method: 'POST',
        path: '/items',
        headers: bearer(token),
        body: item(`tt-${what.length}`),
      })
      expect(answer.status, what).toBe(401)
      expect(answer.challenge, what).toMatch(
        /^Bearer realm="items-service", error="invalid_token", error_description="/,
      )
      expect(answer.body.error, what).toMatch(reason)
      expect(JSON.stringify(answer), what).not.toContain(token.split('.')[1])
    }
  })

  it('refuses a missing token, one in the query, and an oversize header alike', async () => {
    const token = await issuer.sign('alice')
    const missing = await alike({
      method: 'POST',
      path: `/items?access_token=${token}`,
      body: item('tt-q'),
    })
    expect(missing).toMatchObject({ status: 401, challenge: 'Bearer realm="items-service"' })
    const long = await alike({
      method: 'POST',
      path: '/items',
      headers: { authorization: `Bearer ${'a'.repeat(9000)}` },
      body: item('tt-l'),
    })
    expect(long).toMatchObject({ status: 431 })
  })

  it('lets the key write every item, and the owner delete theirs', async () => {
    const key = { 'x-apikey': apiKey }
    expect(
      (
        await alike({
          method: 'PUT',
          path: '/items/tt-machine',
          headers: key,
          body: { genre: 'Noir' },
        })
      ).status,
    ).toBe(200)
    const alice = bearer(await issuer.sign('alice'))
    expect(
      (await alike({ method: 'DELETE', path: '/items/tt-alice', headers: alice })).status,
    ).toBe(200)
  })

  it('makes each runtime fetch the key set at most once under a flood of unknown kids', async () => {
    const before = issuer.keySetFetches
    const tokens = await Promise.all(
      Array.from({ length: 100 }, (_, n) => issuer.sign('x', {}, { kid: `flood-${n}` })),
    )
    for (const url of targets()) {
      const answers = await Promise.all(
        tokens.map((token) =>
          send(url, {
            method: 'POST',
            path: '/items',
            headers: bearer(token),
            body: item('tt-flood'),
          }),
        ),
      )
      expect(answers.every((answer) => answer.status === 401)).toBe(true)
    }
    expect(issuer.keySetFetches - before).toBeLessThanOrEqual(2)
  })

  it('keeps taking tokens of cached keys while the provider is down', async () => {
    issuer.mode = 'down'
    try {
      const token = await issuer.sign('carol')
      const answer = await alike({
        method: 'POST',
        path: '/items',
        headers: bearer(token),
        body: item('tt-carol'),
      })
      expect(answer.status).toBe(201)
    } finally {
      issuer.mode = 'up'
    }
  })
})
