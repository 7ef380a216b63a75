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
