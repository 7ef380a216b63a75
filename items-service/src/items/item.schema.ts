import { z } from '@hono/zod-openapi'
import { malformedText } from '@movies-and-mail/http-kit'
import { fieldRules, wellFormedPattern } from './reserved-field-names.js'

// Explicit ranges (the Cc category) rather than \p{Cc}: the same without the `u` flag, so the
// published pattern means the same to every JSON Schema tool.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
const noControlCharacters = /^[^\u0000-\u001f\u007f-\u009f]*$/
/** What the two checks of an id admit, as one pattern for the document. */
const idPattern = `^(?:(?![\\u0000-\\u001f\\u007f-\\u009f])${wellFormedPattern})*$`
/** What the body check admits in any string (`http-kit`'s `findMalformedText`). */
const wellFormed = `^${wellFormedPattern}*$`
const isWellFormed = (text: string) => text.isWellFormed()

/** Ids a URL path cannot hold: URLs resolve these segments (even percent-encoded) away. */
const dotSegments = ['.', '..']
/** Ids a write may not give: `GET /items/events` is the change feed. */
const reservedIds = ['events', ...dotSegments]

const anyItemId = z
  .string()
  .min(1)
  .max(200)
  .regex(noControlCharacters, 'must not contain control characters')
  .refine(isWellFormed, malformedText.value)
  .refine((id) => !dotSegments.includes(id), 'must not be . or .., which a URL path cannot hold')
const idDocs = {
  description: 'Public key of the item, e.g. an IMDb id',
  example: 'tt0111161',
  pattern: idPattern,
}
/** An id as paths and stored items carry it. */
const itemId = anyItemId.openapi({ ...idDocs, not: { enum: dotSegments } })
/**
 * An id a write may give: not `events`, since `GET /items/events` is the change feed. An item
 * stored with that id before stays readable in the list, and can be updated and deleted.
 */
const newItemId = anyItemId
  .refine((id) => id !== 'events', "'events' is reserved: GET /items/events is the change feed")
  .openapi({
    ...idDocs,
    description: `${idDocs.description}; not \`events\` (the change feed's path), \`.\` or \`..\``,
    not: { enum: reservedIds },
  })
const name = z
  .string()
  .min(1)
  .max(500)
  .refine(isWellFormed, malformedText.value)
  .openapi({ example: 'The Shawshank Redemption', pattern: wellFormed })
const genre = z
  .string()
  .min(1)
  .max(100)
  .refine(isWellFormed, malformedText.value)
  .openapi({ example: 'Drama', pattern: wellFormed })

/**
 * What the document says of a body's other fields, beyond what zod checks here: the names and
 * the nesting `rejectReservedFields` refuses before validation (`reserved-field-names.ts`).
 */
const otherFields = {
  propertyNames: fieldRules.topLevelNames,
  additionalProperties: fieldRules.values,
}
const otherFieldsRule =
  'Other fields are stored as given, but no field name may be `_id`, start with `$`, contain ' +
  '`.`, or be `__proto__`, `constructor` or `prototype` (nested names may be `_id`), values ' +
  'nest at most 5 levels below the item, and every string, names included, is well-formed ' +
  'Unicode (no lone UTF-16 surrogate).'

/** POST /items body: the three required fields; other top-level fields are stored as given. */
export const newItemSchema = z
  .object({ id: newItemId, name, genre })
  .catchall(z.unknown())
  .openapi('NewItem', {
    description: otherFieldsRule,
    ...otherFields,
    example: { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama', year: 1994 },
  })

/** PUT /items/:id body: any subset of the fields, at least one. */
export const itemFieldsSchema = z
  .object({ id: newItemId.optional(), name: name.optional(), genre: genre.optional() })
  .catchall(z.unknown())
  .refine((fields) => Object.keys(fields).length > 0, 'at least one field is required')
  .openapi('ItemFields', {
    description: `Any of the fields, at least one. ${otherFieldsRule}`,
    minProperties: 1,
    ...otherFields,
    example: { genre: 'Drama, Crime' },
  })

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
