/**
 * Characters that make two strings look alike, as character-class ranges that mean the same
 * with and without the `u` flag: the bidi controls (ALM U+061C, LRM and RLM U+200E-U+200F, the
 * embeddings and overrides U+202A-U+202E, the isolates U+2066-U+2069) and the zero-width ones
 * (Mongolian vowel separator U+180E, ZWSP, ZWNJ and ZWJ U+200B-U+200D, word joiner and the
 * invisible operators U+2060-U+2064, BOM U+FEFF). An id or a name holding one could show as
 * another; it is refused, never stripped, so what is kept is what was sent.
 */
export const invisibleRanges =
  '\\u061c\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff'

const invisibleCharacter = new RegExp(`[${invisibleRanges}]`)

/** Whether `text` holds none of `invisibleRanges`. */
export const isVisibleText = (text: string): boolean => !invisibleCharacter.test(text)

/** What an answer says of a string that holds one of them. */
export const invisibleText =
  'must not contain bidi controls or zero-width characters (U+061C, U+180E, U+200B-U+200F, ' +
  'U+202A-U+202E, U+2060-U+2064, U+2066-U+2069, U+FEFF)'
