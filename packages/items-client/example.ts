import { createItemsClient, ItemsApiError } from '@movies-and-mail/items-client'

// The fields your items carry beyond id, name and genre, typed: `year` is a `number | undefined`
// on every answer. The key matters only when the service has ITEMS_APIKEY set; it goes with
// writes only.
const items = createItemsClient<{ year: number }>('http://localhost:4000', {
  apiKey: 'my-items-api-key-1',
})

await items.create({
  id: 'tt0111161',
  name: 'The Shawshank Redemption',
  genre: 'Drama',
  year: 1994,
})
await items.create({ id: 'tt0068646', name: 'The Godfather', genre: 'Crime', year: 1972 })
// Any id works, spaces and Unicode included: the client URL-encodes it.
const created = await items.create({ id: 'Amélie 2001', name: 'Amélie', genre: 'Comedy' })
console.log('created:', created.map((item) => item.id).join(', '))

// Read an item with its ETag; a write with it as ifMatch happens only if nobody changed the
// item since.
const { item, etag } = await items.read('Amélie 2001')
console.log('read:', item.name, '/', item.genre)
const updated = await items.update(item.id, { genre: 'Romance', year: 2001 }, { ifMatch: etag })
console.log('updated:', updated.find((each) => each.id === item.id)?.genre)

// That tag is stale now: the service refuses with 412, and nothing changes.
try {
  await items.update(item.id, { genre: 'Drama' }, { ifMatch: etag })
} catch (error) {
  if (!(error instanceof ItemsApiError)) throw error // no answer at all: a network error
  console.log('refused:', error.status, error.body.error)
}

// Every item of a query, fetched a page at a time (here 2 a page) as the loop goes.
const names: string[] = []
for await (const movie of items.all({ sort: 'name', limit: 2 })) names.push(movie.name)
console.log('all:', names.join(', '))

// Reads keep their answer and its ETag. Asked again, the service answers 304 Not Modified,
// without the list, and the call resolves to the kept answer, as a 200 would have.
for (let poll = 1; poll <= 2; poll++) {
  const crime = await items.list({ genre: 'Crime' })
  console.log(`crime (${poll}):`, crime.map((each) => `${each.name}, ${each.year}`).join('; '))
}

// Every change as it happens: Server-Sent Events read with fetch, in Node as in a browser. It
// reconnects by itself and resumes after the last event seen; from onOpen on, nothing is missed.
await new Promise<void>((resolve, reject) => {
  const subscription = items.subscribe(
    (event) => {
      if (event.type === 'reload') return // changes were missed: read the list again
      console.log('event:', event.type, event.item.id, event.item.genre)
      subscription.close()
      resolve()
    },
    {
      onOpen: () => {
        items.update('tt0111161', { genre: 'Crime' }).catch(reject)
      },
      onError: (error, retryInMs) => {
        if (retryInMs === undefined) reject(error) // it has ended: the service cannot follow
      },
    },
  )
})
