import { listBytes, type TaggedJson, type TaggedList } from '../../src/store/item-store.js'

/** The items the ItemStore contract's tests store. */
export const contractItems = {
  a: { id: 'a', name: 'Alien', genre: 'Horror' },
  b: { id: 'b', name: 'Brazil', genre: 'Satire' },
  c: { id: 'c', name: 'Casablanca', genre: 'Drama' },
} as const

/** Parses what a store answered: bytes, or the Blob a Worker's object answers a list with. */
export async function parseJson<T>(tagged: TaggedJson | TaggedList | null): Promise<T | null> {
  return tagged === null ? null : JSON.parse(new TextDecoder().decode(await listBytes(tagged)))
}
