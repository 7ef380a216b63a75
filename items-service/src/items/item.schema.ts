import {
  documented,
  invisibleRanges,
  invisibleText,
  isVisibleText,
  malformedText,
  named,
  parsedJsonBody,
} from '@movies-and-mail/http-kit/routes'
import type { MiddlewareHandler } from 'hono'
import * as z from 'zod/mini'

// What an item may be: the zod schemas the routes validate with (and the OpenAPI document and the
// typed client are made of), and the rules on field names and nesting that run before them.

/** Names that would reach an object's prototype: no field may have them. */
export const prototypeNames: readonly string[] = ['__proto__', 'constructor', 'prototype']

/**
 * How many levels values may nest below the item. The embedded store's key check visits each
 * array element twice, so its cost doubles with every array level: 40 levels, a few hundred
 * bytes, would block the process for hours. At 5 a 64 KiB body costs tens of milliseconds.
 */
export const maxNestingDepth = 5

/**
 * Control characters (the Cc category): a database may refuse them in a name (MongoDB: NUL), a
 * log may split on them. Explicit ranges rather than \p{Cc}: the same without the `u` flag, so
 * the published patterns mean the same to every JSON Schema tool.
 */
const controlRanges = '\\u0000-\\u001f\\u007f-\\u009f'
const controlCharacter = new RegExp(`[${controlRanges}]`)

/**
 * Names at the top an item's body may not give: `_id` is the database's own, `_owner` the
 * service's (the creating user's, from their token).
 */
export const reservedTopLevelNames: readonly string[] = ['_id', '_owner']

/** Why a field name cannot be stored, or null when it can. */
export function reasonToRefuse(name: string, topLevel: boolean): string | null {
  if (prototypeNames.includes(name) || (topLevel && reservedTopLevelNames.includes(name))) {
    return `'${name}' is a reserved field name`
  }
  if (controlCharacter.test(name)) return 'field names must not contain control characters'
  if (name.startsWith('$')) return 'field names must not start with $'
  if (name.includes('.')) return 'field names must not contain .'
  return null
}

/**
 * Finds what a document database would misread or refuse: field names at any depth (operators,
 * dotted paths, `_id` at the top) or that would reach an object's prototype, and values nested
 * deeper than `maxNestingDepth`. Runs on the parsed JSON before schema validation, which would
 * silently drop `__proto__`.
 */
export function findReservedFieldNames(
  value: unknown,
  path: (string | number)[] = [],
): { path: (string | number)[]; message: string }[] {
  if (path.length > maxNestingDepth) {
    return [{ path, message: `values must not nest more than ${maxNestingDepth} levels deep` }]
  }
  if (Array.isArray(value)) {
    return value.flatMap((element, index) => findReservedFieldNames(element, [...path, index]))
  }
  if (typeof value !== 'object' || value === null) return []
  return Object.keys(value).flatMap((key) => {
    const reason = reasonToRefuse(key, path.length === 0)
    const here = [...path, key]
    const nested = findReservedFieldNames((value as Record<string, unknown>)[key], here)
    return reason ? [{ path: here, message: reason }, ...nested] : nested
  })
}

/** 400 for a JSON body with reserved field names or too deep nesting; runs after parsing. */
export const rejectReservedFields: MiddlewareHandler = async (c, next) => {
  const issues = findReservedFieldNames(await parsedJsonBody(c))
  if (issues.length === 0) return next()
  return c.json(
    {
      error: 'request body has fields that cannot be stored',
      issues: issues.map(({ path, message }) => ({ path: path.join('.'), message })),
    },
    400,
  )
}

/** Well-formed UTF-16: no lone surrogate. The same with and without the `u` flag. */
const wellFormedPattern = '(?:[^\\ud800-\\udfff]|[\\ud800-\\udbff][\\udc00-\\udfff])'

/** Names a nested object may use: not `$…`, no `.`, no control character, none that reaches a prototype. */
const nestedNamePattern = `^(?!(?:__proto__|constructor|prototype)$)(?!\\$)(?:(?![.${controlRanges}])${wellFormedPattern})*$`
/** Names an item may use at the top: as nested ones, and not `_id` or `_owner`. */
const topLevelNamePattern = `^(?!(?:_id|_owner)$)${nestedNamePattern.slice(1)}`

/** The name of the JSON Schema of a value nested `depth` levels below the item. */
const valueSchemaName = (depth: number) => `FieldValue${depth}`

/**
 * The rules above as JSON Schema, for the OpenAPI document: the field names an item may use
 * (`propertyNames`) and its other fields' values (`additionalProperties`), one named schema per
 * level of nesting, since JSON Schema has no depth limit of its own. Strings are well-formed.
 */
export const fieldRules = {
  topLevelNames: { pattern: topLevelNamePattern },
  values: { $ref: `#/components/schemas/${valueSchemaName(1)}` },
  /** The named schemas `values` refers to, for the document's components. */
  components: Object.fromEntries(
    Array.from({ length: maxNestingDepth }, (_, index) => {
      const depth = index + 1
      const deeper =
        depth < maxNestingDepth
          ? [
              {
                type: 'array' as const,
                items: { $ref: `#/components/schemas/${valueSchemaName(depth + 1)}` },
              },
              {
                type: 'object' as const,
                propertyNames: { pattern: nestedNamePattern },
                additionalProperties: {
                  $ref: `#/components/schemas/${valueSchemaName(depth + 1)}`,
                },
              },
            ]
          : [
              { type: 'array' as const, items: {}, maxItems: 0 },
              { type: 'object' as const, maxProperties: 0 },
            ]
      const schema = {
        description:
          depth < maxNestingDepth
            ? `A field's value ${depth} level${depth > 1 ? 's' : ''} below the item`
            : `A value ${depth} levels below the item: nothing may nest in it`,
        anyOf: [
          { type: 'string' as const, pattern: `^${wellFormedPattern}*$` },
          { type: ['number' as const, 'boolean' as const, 'null' as const] },
          ...deeper,
        ],
      }
      return [valueSchemaName(depth), schema]
    }),
  ),
}

const noControlCharacters = new RegExp(`^[^${controlRanges}]*$`)
/** What the two checks of an id admit, as one pattern for the document. */
const idPattern = `^(?:(?![${controlRanges}])${wellFormedPattern})*$`
/** What the checks of an id a write gives admit, but NFC, which no pattern can say. */
const newIdPattern = `^(?:(?![${controlRanges}${invisibleRanges}])${wellFormedPattern})*$`
const notNfc =
  'must be in Unicode normalization form NFC (String.prototype.normalize("NFC")): ' +
  '"café" with U+00E9, not "e" followed by U+0301'
/** What the body check admits in any string (`http-kit`'s `parseStrictJson`). */
const wellFormed = `^${wellFormedPattern}*$`
const isWellFormed = (text: string) => text.isWellFormed()

/** Ids a URL path cannot hold: URLs resolve these segments (even percent-encoded) away. */
const dotSegments = ['.', '..']
/** Ids a write may not give: `GET /items/events` is the change feed. */
const reservedIds = ['events', ...dotSegments]

const anyItemId = z.string().check(
  z.minLength(1),
  z.maxLength(200),
  z.regex(noControlCharacters, 'must not contain control characters'),
  z.refine(isWellFormed, malformedText.value),
  z.refine((id) => !dotSegments.includes(id), 'must not be . or .., which a URL path cannot hold'),
)
const idDocs = {
  description: 'Public key of the item, e.g. an IMDb id',
  example: 'tt0111161',
  pattern: idPattern,
}
/** An id as paths and stored items carry it. */
const itemId = documented(anyItemId, { ...idDocs, not: { enum: dotSegments } })
/**
 * An id a write may give: not `events`, since `GET /items/events` is the change feed. An item
 * stored with that id before stays readable in the list, and can be updated and deleted.
 */
const newItemId = documented(
  anyItemId.check(
    z.refine((id) => id !== 'events', "'events' is reserved: GET /items/events is the change feed"),
    z.refine(isVisibleText, invisibleText),
    z.refine((id) => id.normalize('NFC') === id, notNfc),
  ),
  {
    ...idDocs,
    description:
      `${idDocs.description}; not \`events\` (the change feed's path), \`.\` or \`..\`; ` +
      'in Unicode NFC, without bidi controls or zero-width characters, so that two ids never ' +
      'look alike',
    pattern: newIdPattern,
    not: { enum: reservedIds },
  },
)
const name = documented(
  z.string().check(z.minLength(1), z.maxLength(500), z.refine(isWellFormed, malformedText.value)),
  { example: 'The Shawshank Redemption', pattern: wellFormed },
)
const genre = documented(
  z.string().check(z.minLength(1), z.maxLength(100), z.refine(isWellFormed, malformedText.value)),
  { example: 'Drama', pattern: wellFormed },
)

/**
 * What the document says of a body's other fields, beyond what zod checks here: the names and
 * the nesting `rejectReservedFields` refuses before validation.
 */
const otherFields = {
  propertyNames: fieldRules.topLevelNames,
  additionalProperties: fieldRules.values,
}
const otherFieldsRule =
  'Other fields are stored as given, but no field name may be `_id` or `_owner`, start with `$`, contain ' +
  '`.`, or be `__proto__`, `constructor` or `prototype` (nested names may be `_id`), values ' +
  'nest at most 5 levels below the item, and every string, names included, is well-formed ' +
  'Unicode (no lone UTF-16 surrogate).'

/** POST /items body: the three required fields; other top-level fields are stored as given. */
export const newItemSchema = named(
  'NewItem',
  z.catchall(z.object({ id: newItemId, name, genre }), z.unknown()),
  {
    description: otherFieldsRule,
    ...otherFields,
    example: { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama', year: 1994 },
  },
)

/** PUT /items/:id body: any subset of the fields, at least one. */
export const itemFieldsSchema = named(
  'ItemFields',
  z
    .catchall(
      z.object({ id: z.optional(newItemId), name: z.optional(name), genre: z.optional(genre) }),
      z.unknown(),
    )
    .check(z.refine((fields) => Object.keys(fields).length > 0, 'at least one field is required')),
  {
    description: `Any of the fields, at least one. ${otherFieldsRule}`,
    minProperties: 1,
    ...otherFields,
    example: { genre: 'Drama, Crime' },
  },
)

const storedExample = {
  _id: '6740a1f2c3d4e5f6a7b8c9d0',
  id: 'tt0111161',
  name: 'The Shawshank Redemption',
  genre: 'Drama',
  year: 1994,
}

/** An item as every read returns it. */
export const itemSchema = named(
  'Item',
  z.catchall(
    z.object({
      _id: documented(z.string().check(z.regex(/^[0-9a-f]{24}$/)), {
        example: '6740a1f2c3d4e5f6a7b8c9d0',
      }),
      _owner: z.optional(
        documented(z.string(), {
          description:
            "The user who created the item (their token's `sub`); absent on items the API key created",
          example: 'auth0|6740a1f2c3d4e5f6a7b8c9d0',
        }),
      ),
      id: itemId,
      name,
      genre,
    }),
    z.unknown(),
  ),
  { example: storedExample },
)

export const itemListSchema = named('ItemList', z.array(itemSchema), {
  example: [
    storedExample,
    { _id: '6740a1f2c3d4e5f6a7b8c9d1', id: 'tt0068646', name: 'The Godfather', genre: 'Crime' },
  ],
})

export const itemIdParamSchema = z.object({ id: itemId })
