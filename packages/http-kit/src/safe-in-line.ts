/** Whitespace and control characters, which could end a log line early or forge another. */
const unsafeInLine = /[\s\p{Cc}]/u
const controls = /\p{Cc}/gu

/**
 * A path as a log line shows it: with whitespace and control characters (a decoded `%0A`, say)
 * percent-encoded, so that no path can end the line or forge another.
 * @example safeInLine('/items/a\nb') // '/items/a%0Ab'
 */
export function safeInLine(path: string): string {
  return unsafeInLine.test(path) ? encodeURI(path) : path
}

/**
 * `text` with every control character (line breaks included) as a `\u` escape, for a message
 * that may quote what a client sent.
 * @example escapeControls('a\nb') // 'a\\u000ab'
 */
export function escapeControls(text: string): string {
  return text.replace(controls, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
