import { describe, expect, it } from 'vitest'
import { recordingFetch, stored } from '../test/support/request-fixtures.js'
import { createItemsClient } from './items-client.js'

describe('list and page', () => {
  it('send the query in the order given, encoded, leaving out undefined values', async () => {
    const { fetch, sent } = recordingFetch()
    const items = createItemsClient('http://api.test', { fetch })
    await items.list({ genre: 'Drama', sort: '-name' })
    await items.list({ name: 'Amélie & co', year: undefined, 'a b': '1+1=2' })
    await items.list({})
    await items.page({ sort: 'name', limit: 20, cursor: 'WyI2NzQwIl0' })
    expect(sent.map(({ url }) => url)).toEqual([
      'http://api.test/items?genre=Drama&sort=-name',
      'http://api.test/items?name=Am%C3%A9lie%20%26%20co&a%20b=1%2B1%3D2',
      'http://api.test/items',
      'http://api.test/items?sort=name&limit=20&cursor=WyI2NzQwIl0',
    ])
  })

  it('read the next page’s cursor from the Link header, and none on the last page', async () => {
    const link = '</items?genre=Crime&limit=1&cursor=WyI2NzQwYTFmMiJd>; rel="next"'
    const answers = [
      Response.json([stored], { headers: { link } }),
      Response.json([{ ...stored, id: 'tt2' }]),
    ]
    const { fetch, sent } = recordingFetch(() => answers.shift() ?? Response.json([]))
    const items = createItemsClient('http://api.test', { fetch })
    const query = { genre: 'Crime', limit: 1 }
    const first = await items.page(query)
    expect(first).toEqual({ items: [stored], next: 'WyI2NzQwYTFmMiJd' })
    const second = await items.page({ ...query, cursor: first.next })
    expect(second).toEqual({ items: [{ ...stored, id: 'tt2' }] })
    expect('next' in second).toBe(false)
    expect(sent[1]?.url).toBe('http://api.test/items?genre=Crime&limit=1&cursor=WyI2NzQwYTFmMiJd')
  })
})
