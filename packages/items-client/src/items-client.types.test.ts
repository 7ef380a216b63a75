import { describe, expectTypeOf, it } from 'vitest'
import type { Item, ItemFields } from './api-types.js'
import type { ItemEvent } from './item-event.js'
import { createItemsClient } from './items-client.js'

// What the compiler says of a client's calls: `npm run typecheck` checks these. Run, the calls
// only get an empty tagged answer.

const fetch = async () => Response.json([], { headers: { etag: '"e"' } })
const films = createItemsClient<{ year: number; tags: string[] }>('http://api.test', { fetch })
const plain = createItemsClient('http://api.test', { fetch })

describe('a client with custom fields', () => {
  it('types them, each optional, on every answer and event', async () => {
    const [first] = await films.list()
    expectTypeOf(first?.year).toEqualTypeOf<number | undefined>()
    expectTypeOf((await films.get('tt1')).year).toEqualTypeOf<number | undefined>()
    expectTypeOf((await films.read('tt1')).item.tags).toEqualTypeOf<string[] | undefined>()
    expectTypeOf((await films.page({ limit: 2 })).items).toEqualTypeOf<
      Item<{ year: number; tags: string[] }>[]
    >()
    expectTypeOf((await films.create({ id: 'a', name: 'b', genre: 'c' }))[0]?.year).toEqualTypeOf<
      number | undefined
    >()
    for await (const item of films.all({ genre: 'Drama' })) {
      expectTypeOf(item.year).toEqualTypeOf<number | undefined>()
    }
    films
      .subscribe((event) => {
        expectTypeOf(event).toEqualTypeOf<ItemEvent<{ year: number; tags: string[] }>>()
        if (event.type !== 'reload')
          expectTypeOf(event.item.year).toEqualTypeOf<number | undefined>()
      })
      .close()
    // Fields it was not told of stay unknown; the built-in ones keep their types.
    expectTypeOf((await films.get('tt1')).rating).toEqualTypeOf<unknown>()
    expectTypeOf((await films.get('tt1')).name).toEqualTypeOf<string>()
  })

  it('takes them in create and update, of their type only', async () => {
    await films.create({ id: 'tt1', name: 'A film', genre: 'Drama', year: 1994, rating: 9 })
    await films.update('tt1', { year: 1995 })
    await films.update('tt1', { tags: ['prison'], genre: 'Crime' })
    // @ts-expect-error year is a number
    await films.create({ id: 'tt1', name: 'A film', genre: 'Drama', year: '1994' })
    // @ts-expect-error year is a number
    await films.update('tt1', { year: '1995' })
  })
})

describe('update', () => {
  it('needs at least one field', async () => {
    // @ts-expect-error the service refuses an update with no field (400)
    await plain.update('tt1', {})
    // @ts-expect-error the same with custom fields
    await films.update('tt1', {}, { ifMatch: '*' })
    const fields: ItemFields = { genre: 'Crime' }
    await plain.update('tt1', fields)
  })
})

describe('a client without custom fields', () => {
  it('types items as the service’s, other fields unknown', async () => {
    expectTypeOf(await plain.get('tt1')).toEqualTypeOf<Item>()
    expectTypeOf((await plain.get('tt1')).year).toEqualTypeOf<unknown>()
  })
})
