const prototypeNames = new Set(['__proto__', 'constructor', 'prototype'])

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
 * Finds field names (at any depth; `_id` at the top) that a document database would misread (operators, dotted
 * paths, `_id`) or that would reach an object's prototype. Runs on the parsed JSON before
 * schema validation, which would silently drop `__proto__`.
 */
export function findReservedFieldNames(
  value: unknown,
  path: (string | number)[] = [],
): { path: (string | number)[]; message: string }[] {
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
