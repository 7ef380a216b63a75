import { type JsonIssue, jsonIssues } from './json-issues.js'

export { type JsonIssue, jsonIssueMessages } from './json-issues.js'

/** JSON text, checked: its value, or that it is no JSON, or what of it would not be kept. */
export type StrictJson =
  | { ok: true; value: unknown; text: string }
  | { ok: false; syntax: true }
  | { ok: false; syntax: false; issues: JsonIssue[] }

// Both drop a UTF-8 BOM before the text, as `Response.json()` does.
const utf8 = new TextDecoder('utf-8', { fatal: true })
const lenientUtf8 = new TextDecoder()

/**
 * Parses JSON text (RFC 8259; a UTF-8 BOM before it is allowed, as `Response.json()` allows it)
 * and refuses what `JSON.parse` would change without a word: bytes that are not UTF-8 (U+FFFD),
 * a lone surrogate escape (no UTF-8 form: no URL, header or database could carry it), a number
 * out of range (`1e400`: null) or too small (`1e-400`: 0), an integer beyond 2^53 that would be
 * rounded, and a field name given twice (the first would be dropped).
 *
 * The platform's primitives do most of it: a fatal `TextDecoder` finds bytes that are not
 * UTF-8, `JSON.parse` the syntax, `isWellFormed` lone surrogates. None sees a name given twice
 * (`JSON.parse` keeps the last) or a number it changed: a walk of the value counts its fields
 * against the names in the text and looks at its numbers. Only a body where something is found,
 * or may be, is read again, by `jsonIssues`, to name the fields.
 * @example parseStrictJson(new TextEncoder().encode('{"a":1,"a":2}')) // issues: [{ path: 'a', … }]
 */
export function parseStrictJson(bytes: Uint8Array): StrictJson {
  let text: string
  let validUtf8 = true
  try {
    text = utf8.decode(bytes)
  } catch {
    // Outside strings U+FFFD is no JSON: `JSON.parse` tells a body not JSON from a bad string.
    text = lenientUtf8.decode(bytes)
    validUtf8 = false
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, syntax: true }
  }
  if (validUtf8 && keptAsSent(value, text)) return { ok: true, value, text }
  const issues = jsonIssues(bytes, validUtf8)
  return issues.length > 0 ? { ok: false, syntax: false, issues } : { ok: true, value, text }
}

/**
 * Whether `value`, parsed from `text`, surely holds what was sent: every string well-formed,
 * every number one no parsing changes, and as many fields as the text has names. A name ends
 * at a quote right before a colon (`":`); inside a string such a pair is escaped (`\":`) and only
 * counts one more, as a name given twice counts one more than the fields. Names with space
 * before their colon, and numbers that may have been changed, are left to `jsonIssues`.
 */
function keptAsSent(value: unknown, text: string): boolean {
  let fields = 0
  let zero = false
  // Text decoded from UTF-8 is well-formed: only a `\u` escape can make a lone surrogate.
  const escapes = text.includes('\\u')
  const containers: object[] = []
  /** Whether a value is kept, as far as it alone says; containers are kept to be read next. */
  const isKept = (each: unknown): boolean => {
    if (typeof each === 'string') return !escapes || each.isWellFormed()
    if (typeof each === 'number') {
      zero ||= each === 0
      // Infinity was out of range; a double this large may be an integer rounded.
      return Number.isFinite(each) && Math.abs(each) < 2 ** 53
    }
    if (each !== null && typeof each === 'object') containers.push(each)
    return true
  }
  if (!isKept(value)) return false
  for (let container = containers.pop(); container; container = containers.pop()) {
    if (Array.isArray(container)) {
      for (let at = 0; at < container.length; at += 1) if (!isKept(container[at])) return false
      continue
    }
    const record = container as Record<string, unknown>
    for (const name in record) {
      fields += 1
      if ((escapes && !name.isWellFormed()) || !isKept(record[name])) return false
    }
  }
  // A 0 may be a number too small to keep, which is written with an exponent below -99 or with
  // more than 200 zeros after the point (`1e-400`, `0.000…1`).
  if (zero && /[eE]-\d{3}|0{200}/.test(text)) return false
  if (fields !== occurrences(text, '":')) return false
  // Space before a colon is rare (no serialiser writes it) and so worth a regular expression.
  return !/[ \t\n\r]:/.test(text) || !/"[ \t\n\r]+:/.test(text)
}

/** How many times `part` is in `text`. */
function occurrences(text: string, part: string): number {
  let count = 0
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count += 1
  return count
}
