import { MongoStandIn, type StandInOptions } from '@movies-and-mail/test-kit'
import { ObjectId } from 'mongodb'
import { afterEach } from 'vitest'
import type { FeedEvent } from '../../src/store/change-feed.js'
import { MongoItemStore } from '../../src/store/mongo/mongo-item-store.js'

export const timeoutMs = 500
const decoder = new TextDecoder()
export const movie = { id: 'tt0078748', name: 'Alien', genre: 'Horror' }
export const hex = '6740a1f2c3d4e5f6a7b8c9d0'
export const _id = new ObjectId(hex)

/**
 * A MongoItemStore connected to a fresh stand-in for each test of the file, both closed after
 * it: `open()` starts them, `standIn()` and `store()` reach them.
 */
export function useStandInStore() {
  let standIn: MongoStandIn | undefined
  let store: MongoItemStore | undefined
  afterEach(async () => {
    await store?.close()
    await standIn?.close()
    store = undefined
    standIn = undefined
  })
  return {
    async open(options: StandInOptions = {}): Promise<void> {
      standIn = await MongoStandIn.start(options)
      store = await MongoItemStore.connect({ url: standIn.url, timeoutMs })
    },
    standIn: () => standIn as MongoStandIn,
    store: () => store as MongoItemStore,
  }
}

/** The events of the store's feed, as they come. */
export function follow(store: MongoItemStore): FeedEvent[] {
  const events: FeedEvent[] = []
  store.changes?.subscribe({ event: (event) => events.push(event), end: () => {} })
  return events
}

export async function until(check: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Only the named fields of what was sent: the driver adds its own (`lsid`, `$db`, ...). */
export const pick = (sent: Record<string, unknown> | undefined, ...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, sent?.[name]]))

export const json = (event: FeedEvent | undefined) =>
  event && JSON.parse(decoder.decode(event.data))
