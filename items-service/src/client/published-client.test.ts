import { describe, expect, it } from 'vitest'
import { createItemsClient, ItemsApiError } from '../../../packages/items-client/src/index.js'
import { movies, useTestApp } from '../../test/support/test-app.js'

const apiKey = 'client-test-key'

/** What a call rejected with, for the assertions. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call was expected to fail'),
    (error: unknown) => error,
  )

// @movies-and-mail/items-client against the real app in-process: its requests are the ones
// the routes take, and the service's error answers reach the caller as ItemsApiError.
describe('the published client against the app', () => {
  const api = useTestApp({ apiKey })
  const client = (key: string | undefined = apiKey) =>
    createItemsClient('http://items.test', {
      apiKey: key,
      fetch: (url, init) => api().request(url, init),
    })

  it('creates, lists, reads, updates and removes items', async () => {
    const items = client()
    expect(await items.create(movies.shawshank)).toEqual([
      { _id: expect.stringMatching(/^[0-9a-f]{24}$/), ...movies.shawshank },
    ])
    await items.create(movies.godfather)
    expect((await items.list()).map((item) => item.id)).toEqual(['tt0111161', 'tt0068646'])
    expect(await items.get('tt0068646')).toMatchObject(movies.godfather)
    const updated = await items.update('tt0111161', { genre: 'Crime' })
    expect(updated[0]).toMatchObject({ ...movies.shawshank, genre: 'Crime' })
    expect(await items.remove('tt0111161')).toEqual([expect.objectContaining(movies.godfather)])
  })

  it.each(['Amélie 2001', 'a/b', '100% Wolf', 'what? #1 & more'])(
    'addresses the id %j as given',
    async (id) => {
      const items = client()
      await items.create({ id, name: 'Some film', genre: 'Drama' })
      expect(await items.get(id)).toMatchObject({ id })
      expect(await items.update(id, { genre: 'Comedy' })).toMatchObject([{ id, genre: 'Comedy' }])
      expect(await items.remove(id)).toEqual([])
    },
  )

  it('rejects a duplicate id with ItemsApiError 409 and the service’s message', async () => {
    const items = client()
    await items.create(movies.shawshank)
    const error = await refusal(items.create(movies.shawshank))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({
      status: 409,
      body: { error: "an item with id 'tt0111161' already exists" },
    })
  })

  it('carries the validation issues of a 400', async () => {
    const error = await refusal(client().create({ id: 'tt1', name: '', genre: 'Drama' }))
    expect(error).toMatchObject({
      status: 400,
      body: { error: 'invalid request body', issues: [{ path: 'name' }] },
    })
    expect((error as ItemsApiError).message).toMatch(/^invalid request body \(name: .+\)$/)
  })

  it('answers 404 for an id no item has', async () => {
    await expect(client().get('nope')).rejects.toMatchObject({
      status: 404,
      body: { error: "item 'nope' not found" },
    })
  })

  it('reads without the key and is refused a write with a wrong one', async () => {
    const stranger = client('wrong-key')
    await expect(stranger.list()).resolves.toEqual([])
    await expect(stranger.create(movies.shawshank)).rejects.toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
  })
})
