import { createItemsClient, ItemsApiError } from '@movies-and-mail/items-client'

// The key matters only when the service has ITEMS_APIKEY set; it goes with writes only.
const items = createItemsClient('http://localhost:4000', { apiKey: 'my-items-key' })

await items.create({ id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' })
await items.create({ id: 'tt0068646', name: 'The Godfather', genre: 'Crime' })
// Any id works, spaces and Unicode included: the client URL-encodes it.
const created = await items.create({ id: 'Amélie 2001', name: 'Amélie', genre: 'Comedy' })
console.log('created:', created.map((item) => item.id).join(', '))

// Read an item with its ETag; a write with it as ifMatch happens only if nobody changed the
// item since.
const { item, etag } = await items.read('Amélie 2001')
console.log('read:', item.name, '/', item.genre)
const updated = await items.update(item.id, { genre: 'Romance' }, { ifMatch: etag })
console.log('updated:', updated.find((each) => each.id === item.id)?.genre)

// That tag is stale now: the service refuses with 412, and nothing changes.
try {
  await items.update(item.id, { genre: 'Drama' }, { ifMatch: etag })
} catch (error) {
  if (!(error instanceof ItemsApiError)) throw error // no answer at all: a network error
  console.log('refused:', error.status, error.body.error)
}

// A query a page at a time: `next` is the cursor of the following page, absent on the last.
let cursor: string | undefined
do {
  const page = await items.page({ sort: 'name', limit: 2, cursor })
  console.log('page:', page.items.map((each) => each.name).join(', '))
  cursor = page.next
} while (cursor !== undefined)
const crime = await items.list({ genre: 'Crime' })
console.log('crime:', crime.map((each) => each.name).join(', '))

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
