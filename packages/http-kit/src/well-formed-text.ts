/** Why a string is refused: what a lone surrogate is, and why it cannot be kept. */
const why =
  'well-formed Unicode: a lone UTF-16 surrogate (\\ud800-\\udfff) cannot be stored or sent'

/** What the answer says of a string, or of a field name, that is not well-formed. */
export const malformedText = { value: `must be ${why}`, fieldName: `field names must be ${why}` }

/** How many strings one answer names; a body may hold thousands. */
const maxIssues = 20

/**
 * Every string of a parsed JSON value, field names included, that is not well-formed UTF-16 (a
 * lone surrogate, which JSON can spell as `"\ud800"`): such a string has no UTF-8 form, so it
 * cannot go into a URL, a header, a database that speaks UTF-8, or a mail. Paths are dotted, a
 * malformed field name shown with its surrogates as `\\u` escapes. The walk keeps its own stack, so no
 * depth of nesting can overflow the call stack.
 * @example findMalformedText({ id: 'lone\ud800' }) // [{ path: 'id', message: '…' }]
 */
export function findMalformedText(value: unknown): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = []
  /** What is left to look at, last first: a value at its path, or a field name found malformed. */
  const pending: [value: unknown, path: string, malformedName?: true][] = [[value, '']]
  const at = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`)
  while (pending.length > 0 && issues.length < maxIssues) {
    const [current, path, malformedName] = pending.pop() as (typeof pending)[number]
    if (malformedName) {
      issues.push({ path, message: malformedText.fieldName })
    } else if (typeof current === 'string') {
      if (!current.isWellFormed()) issues.push({ path, message: malformedText.value })
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) {
        pending.push([current[index], at(path, index)])
      }
    } else if (typeof current === 'object' && current !== null) {
      const keys = Object.keys(current)
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index] as string
        if (key.isWellFormed()) {
          pending.push([(current as Record<string, unknown>)[key], at(path, key)])
        } else {
          // JSON's own escapes turn a lone surrogate into six ASCII characters.
          pending.push([undefined, at(path, JSON.stringify(key).slice(1, -1)), true])
        }
      }
    }
  }
  return issues
}
