// A start's floor: zod's tree-shakable `zod/mini` alone, one schema checked (bench/start-floor.mjs).
import * as z from 'zod/mini'

const Item = z.object({ id: z.string(), name: z.string(), genre: z.string() })

export default {
  fetch: () => Response.json([Item.parse({ id: 'tt1', name: 'Alien', genre: 'SF' })]),
}
