import { numberChange } from './json-number.js'
import { malformedText } from './well-formed-text.js'

/** A value of the JSON that would not be kept as sent, by its dotted path. */
export type JsonIssue = { path: string; message: string }

/** What each issue says: each names a change of what was sent that `JSON.parse` makes silently. */
export const jsonIssueMessages = {
  invalidUtf8: 'must be valid UTF-8: bytes that are not would be stored as U+FFFD',
  invalidUtf8Name: 'field names must be valid UTF-8: bytes that are not would be stored as U+FFFD',
  loneSurrogate: malformedText.value,
  loneSurrogateName: malformedText.fieldName,
  duplicateName: 'is given more than once in one object: only the last would be kept',
  tooLarge: 'is beyond the range of a number (about ±1.8e308): it would be stored as null',
  tooSmall: 'is too close to 0 for a number (below about 5e-324): it would be stored as 0',
  inexact: 'is an integer beyond ±2^53 that a number cannot hold exactly: send it as a string',
} as const

/** How many issues one answer names; a body may hold thousands. */
const maxIssues = 20
const [quote, backslash, comma, colon] = [0x22, 0x5c, 0x2c, 0x3a]
const [openObject, openArray, closeObject, closeArray] = [0x7b, 0x5b, 0x7d, 0x5d]
// A string's bytes between its quotes: a byte order mark there is part of the string.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** An object or array being read: an object's names so far, and the key of the field being read. */
type Frame = { names: Set<string> | undefined; key: string | number }

/**
 * The fields of JSON `bytes` that would not be kept as sent, in the order they come, by their
 * paths: strings whose bytes are not UTF-8 or that hold a lone surrogate, names given twice in
 * one object, numbers `JSON.parse` would change (`numberChange`). The bytes are JSON, as
 * `JSON.parse` found them, but for bytes that are not UTF-8 (`validUtf8` false), which can only
 * be inside strings. Each string's own checks are the platform's (a fatal `TextDecoder`,
 * `JSON.parse` for escapes, `isWellFormed`); this finds where each string, name and number is,
 * with a stack of its own, so no depth of nesting overflows the call stack.
 */
export function jsonIssues(bytes: Uint8Array, validUtf8: boolean): JsonIssue[] {
  const says = jsonIssueMessages
  const issues: JsonIssue[] = []
  const stack: Frame[] = []
  const note = (message: string) => {
    issues.push({ path: stack.reduce<string>((path, { key }) => join(path, key), ''), message })
  }
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  // The first backslash from `at` on, found again only once passed: one search for the body.
  let backslashAt = bytes.indexOf(backslash)
  while (at < bytes.length && issues.length < maxIssues) {
    const byte = bytes[at] as number
    const frame = stack.at(-1)
    if (byte === quote) {
      const end = closingQuote(bytes, at)
      if (backslashAt >= 0 && backslashAt < at) backslashAt = bytes.indexOf(backslash, at)
      const escaped = backslashAt >= 0 && backslashAt < end
      const [start, next] = [at + 1, afterSpace(bytes, end + 1)]
      at = next
      if (frame?.names && bytes[next] === colon) {
        const name = textOf(bytes.subarray(start, end), escaped)
        frame.key = shown(name.text)
        if (!name.validUtf8) note(says.invalidUtf8Name)
        else if (!name.text.isWellFormed()) note(says.loneSurrogateName)
        if (frame.names.has(name.text)) note(says.duplicateName)
        frame.names.add(name.text)
      } else if (!validUtf8 || escaped) {
        // Otherwise the string is UTF-8 as the body is, and without escapes it is well-formed.
        const value = textOf(bytes.subarray(start, end), escaped)
        if (!value.validUtf8) note(says.invalidUtf8)
        else if (!value.text.isWellFormed()) note(says.loneSurrogate)
      }
    } else if (byte === openObject || byte === openArray) {
      stack.push({ names: byte === openObject ? new Set() : undefined, key: 0 })
      at += 1
    } else if (byte === closeObject || byte === closeArray) {
      stack.pop()
      at += 1
    } else if (byte === comma && frame && !frame.names) {
      frame.key = (frame.key as number) + 1
      at += 1
    } else if (byte === 0x2d || (byte >= 0x30 && byte <= 0x39)) {
      const start = at
      while (isNumberByte(bytes[at])) at += 1
      const change = numberChange(lenientUtf8.decode(bytes.subarray(start, at)))
      if (change) note(says[change])
    } else at += 1 // space, a comma or colon between fields, a letter of true, false or null
  }
  return issues
}

/** Where the string whose opening quote is at `at` ends: its closing quote, the first not escaped. */
function closingQuote(bytes: Uint8Array, at: number): number {
  let end = bytes.indexOf(quote, at + 1)
  for (;;) {
    let backslashes = 0
    while (bytes[end - 1 - backslashes] === backslash) backslashes += 1
    if (backslashes % 2 === 0) return end
    end = bytes.indexOf(quote, end + 1)
  }
}

/** A string's text from the bytes between its quotes, as `JSON.parse` makes it, and whether they were UTF-8. */
function textOf(inside: Uint8Array, escaped: boolean): { text: string; validUtf8: boolean } {
  let raw: string
  let validUtf8 = true
  try {
    raw = utf8.decode(inside)
  } catch {
    validUtf8 = false
    raw = lenientUtf8.decode(inside)
  }
  return { text: escaped ? (JSON.parse(`"${raw}"`) as string) : raw, validUtf8 }
}

function afterSpace(bytes: Uint8Array, at: number): number {
  let next = at
  for (let byte = bytes[next]; byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d; ) {
    byte = bytes[++next]
  }
  return next
}

/** A byte a number's text may hold. */
function isNumberByte(byte: number | undefined): boolean {
  return (
    byte !== undefined &&
    ((byte >= 0x30 && byte <= 0x39) ||
      byte === 0x2d ||
      byte === 0x2b ||
      byte === 0x2e ||
      (byte | 0x20) === 0x65)
  )
}

/** A field name as a path shows it: one that is not well-formed with JSON's `\u` escapes. */
function shown(name: string): string {
  return name.isWellFormed() ? name : JSON.stringify(name).slice(1, -1)
}

function join(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`
}
