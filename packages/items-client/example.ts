import { createItemsClient, ItemsApiError } from '@movies-and-mail/items-client'

// The key matters only when the service has ITEMS_APIKEY set; it goes with writes only.
const items = createItemsClient('http://localhost:4000', { apiKey: 'my-items-key' })

const created = await items.create({
  id: 'tt0111161',
  name: 'The Shawshank Redemption',
  genre: 'Drama',
})
console.log('created:', created.map((item) => item.id).join(', '))

// Any id works, spaces and Unicode included: the client URL-encodes it.
await items.create({ id: 'Amélie 2001', name: 'Amélie', genre: 'Comedy' })
const listed = await items.list()
console.log('listed:', listed.map((item) => item.id).join(', '))

const amelie = await items.get('Amélie 2001')
console.log('got:', amelie.name, '/', amelie.genre)

const updated = await items.update('Amélie 2001', { genre: 'Romance' })
console.log('updated:', updated.find((item) => item.id === 'Amélie 2001')?.genre)

const left = await items.remove('tt0111161')
console.log('deleted; left:', left.map((item) => item.id).join(', '))

try {
  await items.create({ id: 'Amélie 2001', name: 'Amélie', genre: 'Comedy' })
} catch (error) {
  if (!(error instanceof ItemsApiError)) throw error // no answer at all: a network error
  console.log('refused:', error.status, error.body.error)
}
