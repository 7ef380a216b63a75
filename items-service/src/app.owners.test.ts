import { beforeEach, describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../test/support/test-app.js'
import { TestIssuer, testAudience, testIssuer } from '../test/support/test-issuer.js'
import { issuerUsers } from './users/issuer-users.js'

let issuer: TestIssuer
beforeEach(async () => {
  issuer = await TestIssuer.start()
})
const key = { 'x-apikey': 'operator-api-key-1' }
const as = async (sub: string) => ({ authorization: `Bearer ${await issuer.token(sub)}` })

describe('items and their owners', () => {
  const api = useTestApp(() => ({
    apiKey: 'operator-api-key-1',
    users: issuerUsers(
      { issuer: testIssuer, audience: testAudience, jwksUrl: undefined },
      { fetch: (input, init) => issuer.fetch(input, init) },
    ),
  }))

  it("stores the token's sub as _owner, answered in the list, the item and a query", async () => {
    const created = await api().post(movies.shawshank, await as('auth0|alice'))
    expect(created.status).toBe(201)
    expect(await created.json()).toEqual([
      { _id: expect.any(String), _owner: 'auth0|alice', ...movies.shawshank },
    ])
    await api().post(movies.godfather, key)
    expect(await (await api().get(movies.shawshank.id)).json()).toMatchObject({
      _owner: 'auth0|alice',
    })
    const listed = await api().list()
    expect(listed[1]).not.toHaveProperty('_owner')
    const query = await api().request(`/items?_owner=${encodeURIComponent('auth0|alice')}`)
    expect((await query.json()).map((item: { id: string }) => item.id)).toEqual([
      movies.shawshank.id,
    ])
  })

  it('refuses an _owner in a body, as it refuses _id, from a user and from the key', async () => {
    await api().post(movies.shawshank, await as('alice'))
    for (const headers of [await as('mallory'), key]) {
      const refused = await api().expectRefused(
        () => api().post({ ...movies.godfather, _owner: 'alice' }, headers),
        400,
      )
      expect(refused).toMatchObject({
        error: 'request body has fields that cannot be stored',
        issues: [{ path: '_owner', message: "'_owner' is a reserved field name" }],
      })
      await api().expectRefused(
        () => api().put(movies.shawshank.id, { _owner: 'mallory' }, headers),
        400,
      )
    }
  })

  it("answers another user's PUT and DELETE 403, with or without If-Match, changing nothing", async () => {
    await api().post(movies.shawshank, await as('alice'))
    const etag = (await api().get(movies.shawshank.id)).headers.get('etag') ?? ''
    const error = { error: `item '${movies.shawshank.id}' belongs to another user` }
    const bob = await as('bob')
    for (const headers of [bob, { ...bob, 'if-match': etag }, { ...bob, 'if-match': '*' }]) {
      expect(
        await api().expectRefused(
          () => api().put(movies.shawshank.id, { name: 'X' }, headers),
          403,
        ),
      ).toEqual(error)
      expect(
        await api().expectRefused(() => api().delete(movies.shawshank.id, headers), 403),
      ).toEqual(error)
    }
  })

  it('lets the owner change and delete their item, If-Match as before', async () => {
    await api().post(movies.shawshank, await as('alice'))
    const alice = await as('alice')
    const stale = { ...alice, 'if-match': '"stale"' }
    await api().expectRefused(() => api().put(movies.shawshank.id, { genre: 'X' }, stale), 412)
    const updated = await api().put(movies.shawshank.id, { genre: 'Crime' }, alice)
    expect(await updated.json()).toMatchObject([{ _owner: 'alice', genre: 'Crime' }])
    expect((await api().delete(movies.shawshank.id, alice)).status).toBe(200)
  })

  it("lets the key change every item, and keeps the owner's mark", async () => {
    await api().post(movies.shawshank, await as('alice'))
    const updated = await api().put(movies.shawshank.id, { genre: 'Noir' }, key)
    expect(await updated.json()).toMatchObject([{ _owner: 'alice', genre: 'Noir' }])
    expect((await api().delete(movies.shawshank.id, key)).status).toBe(200)
  })

  it("leaves an item the key created to the key: a user's write is 403", async () => {
    await api().post(movies.shawshank, key)
    await api().expectRefused(
      async () => api().put(movies.shawshank.id, { name: 'X' }, await as('alice')),
      403,
    )
  })

  it('tells followers of the change feed who owns what', async () => {
    const events = await api().request('/items/events')
    const reader = events.body?.getReader()
    await api().post(movies.shawshank, await as('alice'))
    let text = ''
    while (!text.includes('"_owner"')) {
      const chunk = await reader?.read()
      if (!chunk || chunk.done) break
      text += new TextDecoder().decode(chunk.value)
    }
    await reader?.cancel()
    expect(text).toMatch(/event: created\n.*data: \{[^\n]*"_owner":"alice"/s)
  })
})
