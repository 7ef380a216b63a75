// A start's floor: zod alone, one schema checked (bench/start-floor.mjs).
import { z } from 'zod'

const Item = z.object({ id: z.string(), name: z.string(), genre: z.string() })

export default {
  fetch: () => Response.json([Item.parse({ id: 'tt1', name: 'Alien', genre: 'SF' })]),
}
