import { asciiText, hexDigit, isNumberByte } from './ascii-bytes.js'
import { utf8SequenceAt } from './utf8-sequence.js'
import { malformedText } from './well-formed-text.js'

/** A value of the JSON that would not be kept as sent, by its dotted path. */
export type JsonIssue = { path: string; message: string }

/** JSON text, checked: its value, or that it is no JSON, or what of it would not be kept. */
export type StrictJson =
  | { ok: true; value: unknown; text: string }
  | { ok: false; syntax: true }
  | { ok: false; syntax: false; issues: JsonIssue[] }

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
const [quote, backslash, comma, colon, minus, letterU] = [0x22, 0x5c, 0x2c, 0x3a, 0x2d, 0x75]
const closing = { object: 0x7d, array: 0x5d } as const
const simpleEscapes = new Set([...'"\\/bfnrt'].map((char) => char.charCodeAt(0)))
const literals = ['true', 'false', 'null'].map((word) => new TextEncoder().encode(word))
const numberPattern = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const decoder = new TextDecoder()

/** Not JSON: thrown inside the scan, answered as `{ syntax: true }`. */
class NotJson extends Error {}

/** Where a string's bytes are (between its quotes), and what they hold. */
type StringFound = {
  start: number
  end: number
  escaped: boolean
  ascii: boolean
  wellFormed: boolean
  validUtf8: boolean
}

/** An object or array being read: where it is, and the names its fields have had so far. */
type Frame = { kind: keyof typeof closing; path: string; index: number; names: Set<string> }

/**
 * Parses JSON text (RFC 8259; a UTF-8 BOM before it is allowed, as `Response.json()` allows it)
 * and refuses what `JSON.parse` would change without a word: bytes that are not UTF-8 (U+FFFD),
 * a lone surrogate escape (no UTF-8 form: no URL, header or database could carry it), a number
 * out of range (`1e400`: null) or too small (`1e-400`: 0), an integer beyond 2^53 that would be
 * rounded, and a field name given twice (the first would be dropped). One pass over the bytes
 * with a stack of its own, so no depth of nesting overflows the call stack; `JSON.parse` then
 * makes the value.
 * @example parseStrictJson(new TextEncoder().encode('{"a":1,"a":2}')) // issues: [{ path: 'a', … }]
 */
export function parseStrictJson(bytes: Uint8Array): StrictJson {
  const scan = new JsonScan(bytes)
  try {
    scan.run()
  } catch (error) {
    if (error instanceof NotJson) return { ok: false, syntax: true }
    throw error
  }
  if (scan.issues.length > 0) return { ok: false, syntax: false, issues: scan.issues }
  // Every string was checked, and outside strings JSON is ASCII: this decoding changes nothing.
  const text = decoder.decode(bytes)
  return { ok: true, value: JSON.parse(text), text }
}

class JsonScan {
  readonly issues: JsonIssue[] = []
  readonly #bytes: Uint8Array
  #at: number

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes
    this.#at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  }

  run(): void {
    const stack: Frame[] = []
    for (let path: string | undefined = ''; path !== undefined; ) {
      const opened = this.#value(path)
      this.#space()
      if (opened && this.#bytes[this.#at] !== closing[opened.kind]) {
        stack.push(opened)
        path = this.#pathOfField(opened)
      } else {
        if (opened) this.#at += 1
        path = this.#next(stack)
      }
    }
  }

  /** After a value: the path of the next of its object or array, or `undefined` at the end. */
  #next(stack: Frame[]): string | undefined {
    for (let frame = stack.at(-1); frame; frame = stack.at(-1)) {
      this.#space()
      const byte = this.#take()
      if (byte === comma) {
        frame.index += 1
        return this.#pathOfField(frame)
      }
      if (byte !== closing[frame.kind]) throw new NotJson()
      stack.pop()
    }
    this.#space()
    if (this.#at !== this.#bytes.length) throw new NotJson()
    return undefined
  }

  /** Reads up to a field's value (its name and colon, in an object); answers the value's path. */
  #pathOfField(frame: Frame): string {
    return frame.kind === 'object' ? this.#name(frame) : join(frame.path, frame.index)
  }

  /** Reads a value at `path`; an object or array it opens is returned, to be read field by field. */
  #value(path: string): Frame | undefined {
    this.#space()
    const byte = this.#bytes[this.#at]
    if (byte === 0x7b || byte === 0x5b) {
      this.#at += 1
      return { kind: byte === 0x7b ? 'object' : 'array', path, index: 0, names: new Set() }
    }
    if (byte === quote) this.#stringValue(path)
    else if (byte === minus || (byte !== undefined && byte >= 0x30 && byte <= 0x39)) {
      this.#number(path)
    } else this.#literal()
    return undefined
  }

  /** Reads a field's name and its colon; answers the path of the field's value. */
  #name(frame: Frame): string {
    this.#space()
    if (this.#bytes[this.#at] !== quote) throw new NotJson()
    const found = this.#string()
    const name = this.#textOf(found)
    const path = join(frame.path, shown(name))
    if (!found.validUtf8) this.#note(path, jsonIssueMessages.invalidUtf8Name)
    else if (!found.wellFormed) this.#note(path, jsonIssueMessages.loneSurrogateName)
    if (frame.names.has(name)) this.#note(path, jsonIssueMessages.duplicateName)
    frame.names.add(name)
    this.#space()
    if (this.#take() !== colon) throw new NotJson()
    return path
  }

  /** Reads a string that is a value, noting where its text is not what was sent. */
  #stringValue(path: string): void {
    const found = this.#string()
    if (!found.validUtf8) this.#note(path, jsonIssueMessages.invalidUtf8)
    else if (!found.wellFormed) this.#note(path, jsonIssueMessages.loneSurrogate)
  }

  /** Reads a string to its closing quote: where its bytes are, and what they hold. */
  #string(): StringFound {
    const bytes = this.#bytes
    let at = this.#at + 1
    const found = {
      start: at,
      end: at,
      escaped: false,
      ascii: true,
      wellFormed: true,
      validUtf8: true,
    }
    for (let highPending = false; ; ) {
      let byte = bytes[at]
      if (isPlain(byte)) {
        // A run of plain ASCII, most of most strings: only a pending high surrogate is wrong here.
        if (highPending) [found.wellFormed, highPending] = [false, false]
        do byte = bytes[++at]
        while (isPlain(byte))
      }
      if (byte === undefined || byte < 0x20) throw new NotJson()
      const unit = byte === backslash && bytes[at + 1] === letterU ? this.#unit(at) : -1
      const isLow = unit >= 0xdc00 && unit <= 0xdfff
      // A low surrogate must follow a high one, and only one.
      if (isLow !== highPending) found.wellFormed = false
      highPending = unit >= 0xd800 && unit <= 0xdbff
      if (byte === quote) break
      if (byte === backslash) {
        found.escaped = true
        if (unit < 0 && !simpleEscapes.has(bytes[at + 1] as number)) throw new NotJson()
        at += unit < 0 ? 2 : 6
      } else {
        found.ascii = false
        const length = utf8SequenceAt(bytes, at)
        found.validUtf8 &&= length > 0
        at += Math.max(length, 1)
      }
    }
    found.end = at
    this.#at = at + 1
    return found
  }

  /** A string's text, as `JSON.parse` makes it. */
  #textOf({ start, end, escaped, ascii }: StringFound): string {
    const raw = ascii
      ? asciiText(this.#bytes, start, end)
      : decoder.decode(this.#bytes.subarray(start, end))
    return escaped ? (JSON.parse(`"${raw}"`) as string) : raw
  }

  /** The code unit of the `\uXXXX` escape at `at`. */
  #unit(at: number): number {
    let unit = 0
    for (let next = at + 2; next < at + 6; next += 1) {
      const digit = hexDigit(this.#bytes[next])
      if (digit < 0) throw new NotJson()
      unit = unit * 16 + digit
    }
    return unit
  }

  #number(path: string): void {
    const start = this.#at
    while (isNumberByte(this.#bytes[this.#at])) this.#at += 1
    const text = asciiText(this.#bytes, start, this.#at)
    if (!numberPattern.test(text)) throw new NotJson()
    const value = Number(text)
    if (!Number.isFinite(value)) this.#note(path, jsonIssueMessages.tooLarge)
    else if (value === 0 && /[1-9]/.test(text.split(/[eE]/)[0] ?? '')) {
      this.#note(path, jsonIssueMessages.tooSmall)
    } else if (
      !Number.isSafeInteger(value) &&
      /^-?\d+$/.test(text) &&
      BigInt(text) !== BigInt(value)
    ) {
      this.#note(path, jsonIssueMessages.inexact)
    }
  }

  #literal(): void {
    const word = literals.find((each) =>
      each.every((byte, n) => this.#bytes[this.#at + n] === byte),
    )
    if (!word) throw new NotJson()
    this.#at += word.length
  }

  #space(): void {
    for (
      let byte = this.#bytes[this.#at];
      byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
    ) {
      byte = this.#bytes[++this.#at]
    }
  }

  #take(): number | undefined {
    return this.#bytes[this.#at++]
  }

  #note(path: string, message: string): void {
    if (this.issues.length < maxIssues) this.issues.push({ path, message })
  }
}

/** A byte of a string that needs no check: printable ASCII, neither a quote nor a backslash. */
function isPlain(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x20 && byte < 0x80 && byte !== quote && byte !== backslash
}

/** A field name as a path shows it: one that is not well-formed with JSON's `\u` escapes. */
function shown(name: string): string {
  return name.isWellFormed() ? name : JSON.stringify(name).slice(1, -1)
}

function join(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`
}
