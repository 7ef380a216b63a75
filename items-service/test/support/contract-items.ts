/** The items the ItemStore contract's tests store. */
export const contractItems = {
  a: { id: 'a', name: 'Alien', genre: 'Horror' },
  b: { id: 'b', name: 'Brazil', genre: 'Satire' },
  c: { id: 'c', name: 'Casablanca', genre: 'Drama' },
} as const
