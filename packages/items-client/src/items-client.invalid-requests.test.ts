import { describe, expect, it } from 'vitest'
import { recordingFetch, refusal, stored } from '../test/support/request-fixtures.js'
import { InvalidRequestError } from './invalid-request-error.js'
import { ItemsApiError } from './items-api-error.js'
import { createItemsClient } from './items-client.js'

describe('an id no URL can carry', () => {
  it.each([
    ['', /must not be empty/],
    ['.', /cannot hold \. or \.\./],
    ['..', /cannot hold \. or \.\./],
    ['\ud800', /lone surrogate/],
    ['a\udc00b', /lone surrogate/],
  ])('%j is refused before any request, naming it', async (id, reason) => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test', { fetch })
    for (const call of [
      () => items.get(id),
      () => items.read(id),
      () => items.update(id, { genre: 'Crime' }),
      () => items.remove(id, { ifMatch: '*' }),
    ]) {
      const error = await refusal(call())
      expect(error).toBeInstanceOf(InvalidRequestError)
      expect(error).toBeInstanceOf(ItemsApiError)
      expect(error).toMatchObject({ name: 'InvalidRequestError', status: 0 })
      expect((error as Error).message).toContain(`item id ${JSON.stringify(id)}`)
      expect((error as Error).message).toMatch(reason)
    }
    expect(sent).toEqual([])
  })

  it('passes an id with a surrogate pair, which is well-formed', async () => {
    const { fetch, sent } = recordingFetch(() => Response.json(stored))
    await createItemsClient('http://api.test', { fetch }).get('🎬 1')
    expect(sent[0]?.url).toBe('http://api.test/items/%F0%9F%8E%AC%201')
  })

  it('does not read the change feed as the item events, but updates and removes it', async () => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test', { fetch })
    await expect(items.get('events')).rejects.toThrow(/change feed/)
    await expect(items.read('events')).rejects.toBeInstanceOf(InvalidRequestError)
    await items.remove('events')
    expect(sent.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'DELETE http://api.test/items/events',
    ])
  })

  it('refuses a query value that is not well-formed, naming the parameter', async () => {
    const { fetch, sent } = recordingFetch()
    const error = await refusal(
      createItemsClient('http://api.test', { fetch }).list({ a: '\udfff' }),
    )
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as Error).message).toMatch(/query parameter "a"/)
    expect(sent).toEqual([])
  })
})
