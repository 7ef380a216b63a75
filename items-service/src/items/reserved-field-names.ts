const prototypeNames = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * How many levels values may nest below the item. The embedded store's key check visits each
 * array element twice, so its cost doubles with every array level: 40 levels, a few hundred
 * bytes, would block the process for hours. At 5 a 64 KiB body costs tens of milliseconds.
 */
export const maxNestingDepth = 5

/** Why a field name cannot be stored, or null when it can. `_id` is the database's own, at the top. */
function reasonToRefuse(name: string, topLevel: boolean): string | null {
  if (prototypeNames.has(name) || (topLevel && name === '_id')) {
    return `'${name}' is a reserved field name`
  }
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

/** Well-formed UTF-16: no lone surrogate. The same with and without the `u` flag. */
export const wellFormedPattern = '(?:[^\\ud800-\\udfff]|[\\ud800-\\udbff][\\udc00-\\udfff])'

/** Names a nested object may use: not `$…`, no `.`, none that reaches a prototype. */
const nestedNamePattern = `^(?!(?:__proto__|constructor|prototype)$)(?!\\$)(?:(?!\\.)${wellFormedPattern})*$`
/** Names an item may use at the top: as nested ones, and not `_id`. */
const topLevelNamePattern = `^(?!_id$)${nestedNamePattern.slice(1)}`

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
