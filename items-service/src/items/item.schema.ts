import { z } from '@hono/zod-openapi'

// Explicit ranges (the Cc category) rather than \p{Cc}: the same without the `u` flag, so the
// published pattern means the same to every JSON Schema tool.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
const noControlCharacters = /^[^\u0000-\u001f\u007f-\u009f]*$/

const anyItemId = z
  .string()
  .min(1)
  .max(200)
  .regex(noControlCharacters, 'must not contain control characters')
  // URLs resolve these path segments (even percent-encoded) away: /items/.. is /.
  .refine((id) => id !== '.' && id !== '..', 'must not be . or .., which a URL path cannot hold')
const idDocs = { description: 'Public key of the item, e.g. an IMDb id', example: 'tt0111161' }
/** An id as paths and stored items carry it. */
const itemId = anyItemId.openapi(idDocs)
/**
 * An id a write may give: not `events`, since `GET /items/events` is the change feed. An item
 * stored with that id before stays readable in the list, and can be updated and deleted.
 */
const newItemId = anyItemId
  .refine((id) => id !== 'events', "'events' is reserved: GET /items/events is the change feed")
  .openapi(idDocs)
const name = z.string().min(1).max(500).openapi({ example: 'The Shawshank Redemption' })
const genre = z.string().min(1).max(100).openapi({ example: 'Drama' })

/** POST /items body: the three required fields; other top-level fields are stored as given. */
export const newItemSchema = z
  .object({ id: newItemId, name, genre })
  .catchall(z.unknown())
  .openapi('NewItem', {
    description:
      'Fields named `_id`, starting with `$`, containing `.`, or `__proto__`, `constructor`, `prototype` are refused at any depth.',
    example: { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama', year: 1994 },
  })

/** PUT /items/:id body: any subset of the fields, at least one. */
export const itemFieldsSchema = z
  .object({ id: newItemId.optional(), name: name.optional(), genre: genre.optional() })
  .catchall(z.unknown())
  .refine((fields) => Object.keys(fields).length > 0, 'at least one field is required')
  .openapi('ItemFields', { minProperties: 1, example: { genre: 'Drama, Crime' } })

const storedExample = {
  _id: '6740a1f2c3d4e5f6a7b8c9d0',
  id: 'tt0111161',
  name: 'The Shawshank Redemption',
  genre: 'Drama',
  year: 1994,
}

/** An item as every read returns it. */
export const itemSchema = z
  .object({
    _id: z
      .string()
      .regex(/^[0-9a-f]{24}$/)
      .openapi({ example: '6740a1f2c3d4e5f6a7b8c9d0' }),
    id: itemId,
    name,
    genre,
  })
  .catchall(z.unknown())
  .openapi('Item', { example: storedExample })

export const itemListSchema = z.array(itemSchema).openapi('ItemList', {
  example: [
    storedExample,
    { _id: '6740a1f2c3d4e5f6a7b8c9d1', id: 'tt0068646', name: 'The Godfather', genre: 'Crime' },
  ],
})

export const itemIdParamSchema = z.object({
  id: itemId.openapi({ param: { name: 'id', in: 'path' } }),
})

export type Item = z.infer<typeof newItemSchema>
export type ItemFields = z.infer<typeof itemFieldsSchema>
export type StoredItem = z.infer<typeof itemSchema>
