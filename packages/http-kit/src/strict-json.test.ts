import { describe, expect, it } from 'vitest'
import { parseStrictJson, jsonIssueMessages as says } from './strict-json.js'

const encoder = new TextEncoder()
const parse = (text: string) => parseStrictJson(encoder.encode(text))
/** JSON text with raw bytes in place of each `<xx>`. */
const withBytes = (text: string) =>
  parseStrictJson(
    Uint8Array.from(
      text
        .split(/(<[0-9a-f]{2}>)/)
        .flatMap((part) =>
          /^<..>$/.test(part) ? [Number.parseInt(part.slice(1, 3), 16)] : [...encoder.encode(part)],
        ),
    ),
  )
const issues = (result: ReturnType<typeof parseStrictJson>) =>
  !result.ok && !result.syntax ? result.issues : result

describe('parseStrictJson', () => {
  it('answers what JSON.parse answers for JSON it keeps whole', () => {
    const values = [
      { id: 'tt1', name: 'Amélie 🎬', tags: ['a', 1, -0.5, true, null, { x: [] }], n: 1e300 },
      [],
      {},
      'text with "quotes", \\ and \u0001',
      -12.5e-3,
      9007199254740992,
      1e20,
      { '': 1, 'a b': { 'c"d': ['\ud83c\udf7f', '\n\t'] } },
    ]
    for (const value of values) {
      const text = JSON.stringify(value, null, 2)
      expect(parse(text)).toEqual({ ok: true, value: JSON.parse(text), text })
    }
  })

  it('takes a UTF-8 BOM before the text, and answers the text without it', () => {
    expect(withBytes('<ef><bb><bf>{"a":1}')).toEqual({ ok: true, value: { a: 1 }, text: '{"a":1}' })
  })

  it.each([
    '',
    ' ',
    '{',
    '{"a":1,}',
    '[1,]',
    '[,1]',
    '{"a" 1}',
    '{a:1}',
    "{'a':1}",
    '01',
    '1.',
    '.5',
    '+1',
    '1e',
    '--1',
    'tru',
    'nul',
    'True',
    '"\u0001"',
    '"\\x"',
    '"\\u12"',
    '"\\u12g4"',
    '"open',
    '{} {}',
    '{}x',
    'NaN',
    'Infinity',
  ])('refuses %j as not JSON', (text) => {
    expect(parse(text)).toEqual({ ok: false, syntax: true })
  })

  it('refuses bytes that are not UTF-8 outside a string as not JSON', () => {
    expect(withBytes('{"a":1}<ff>')).toEqual({ ok: false, syntax: true })
  })

  it.each([
    ['a stray continuation byte', '{"name":"a<80>b"}'],
    ['a sequence cut short', '{"name":"<c3>"}'],
    ['an overlong form of "/"', '{"name":"<c0><af>"}'],
    ['a surrogate encoded in UTF-8', '{"name":"<ed><a0><80>"}'],
    ['a code point beyond U+10FFFF', '{"name":"<f4><90><80><80>"}'],
    ['a byte no sequence starts with', '{"name":"<fe>"}'],
  ])('names the field whose value has bytes that are not UTF-8: %s', (_, text) => {
    expect(issues(withBytes(text))).toEqual([{ path: 'name', message: says.invalidUtf8 }])
  })

  it('names a field whose name has bytes that are not UTF-8, and a nested value', () => {
    expect(issues(withBytes('{"n<ff>":1,"cast":[{"lead":"<e9>"}]}'))).toEqual([
      { path: 'n\ufffd', message: says.invalidUtf8Name },
      { path: 'cast.0.lead', message: says.invalidUtf8 },
    ])
  })

  it('takes every well-formed sequence, from one byte to four', () => {
    const text = '{"a":"\u007f\u0080\u07ff\u0800\uffff\ud800\udc00\udbff\udfff"}'
    expect(parse(text)).toMatchObject({ ok: true, value: JSON.parse(text) })
  })

  it.each([
    ['a lone high surrogate', '"lone\\ud800"'],
    ['a lone low surrogate', '"\\udfff"'],
    ['a reversed pair', '"\\udc00\\ud800"'],
    ['a high surrogate at the end', '"x\\ud83c"'],
    ['two high surrogates', '"\\ud83c\\ud83c\\udf7f"'],
    ['a high surrogate before plain text', '"\\ud83cpopcorn"'],
    ['a high surrogate before other text', '"\\ud83cé"'],
  ])('names a value with %s', (_, value) => {
    expect(issues(parse(`{"id":${value}}`))).toEqual([{ path: 'id', message: says.loneSurrogate }])
  })

  it('takes an escaped surrogate pair, and names a field name with a lone one as escaped', () => {
    expect(parse('{"a":"\\ud83c\\udf7f"}')).toMatchObject({ ok: true, value: { a: '🍿' } })
    expect(parse('{"a":"\\uD83C\\uDF7F"}')).toMatchObject({ ok: true, value: { a: '🍿' } })
    expect(issues(parse('{"n\\ud800":1}'))).toEqual([
      { path: 'n\\ud800', message: says.loneSurrogateName },
    ])
  })

  it.each([
    ['1e400', says.tooLarge],
    ['-1e400', says.tooLarge],
    ['1.8e308', says.tooLarge],
    ['1e-400', says.tooSmall],
    ['-0.1e-330', says.tooSmall],
    ['9007199254740993', says.inexact],
    ['-12345678901234567890', says.inexact],
  ])('names a number that would not be kept: %s', (number, message) => {
    expect(issues(parse(`{"n":[${number}]}`))).toEqual([{ path: 'n.0', message }])
  })

  it.each([
    '9007199254740993.0',
    '9.007199254740993e15',
    '9.007199254740993E+15',
    '90071992547409930e-1',
    '0.9007199254740993e16',
    '-9007199254740993.000',
    '123456789012345678901234567890',
    '1.23456789012345678901e30',
  ])('names an integer that would be rounded however it is written: %s', (number) => {
    expect(issues(parse(`{"n":${number}}`))).toEqual([{ path: 'n', message: says.inexact }])
  })

  it('keeps a number whose double gives it back, however written, and rounds a fraction', () => {
    const text =
      '[1.5, 1e3, 9007199254740992.000, 9.007199254740992e15, 1e300, 1e23, 2.5e-3, 9007199254740993.5]'
    expect(parse(text)).toMatchObject({ ok: true, value: JSON.parse(text) })
  })

  it('keeps numbers that are exact, however written', () => {
    const text = '[0, -0, 0e-400, 0.0, 9007199254740992, 18014398509481984, 1e20, 5e-324, 0.1]'
    expect(parse(text)).toMatchObject({ ok: true, value: JSON.parse(text) })
  })

  it('names a field given twice in one object, however deep, and not the same name apart', () => {
    expect(issues(parse('{"a":1,"b":{"c":1,"c":2},"a":3,"d":[{"e":1},{"e":2}]}'))).toEqual([
      { path: 'b.c', message: says.duplicateName },
      { path: 'a', message: says.duplicateName },
    ])
    expect(issues(parse('{"\\u0061":1,"a":2}'))).toEqual([
      { path: 'a', message: says.duplicateName },
    ])
    // Long names and names beyond ASCII are read another way than short ASCII ones.
    const long = 'n'.repeat(100)
    expect(issues(parse(`{"${long}":1,"${long}":2,"é":1,"\\u00e9":2}`))).toEqual([
      { path: long, message: says.duplicateName },
      { path: 'é', message: says.duplicateName },
    ])
  })

  it('names a field given twice however the text is spaced, and whatever its strings hold', () => {
    for (const text of [
      '{"a" :1,"a":2}',
      '{"a"\n:\t1 , "a" : 2}',
      '{"x":"\\":","a":1,"a":2}',
      '{"x":":)","a":1,"a":2}',
    ]) {
      expect(issues(parse(text))).toEqual([{ path: 'a', message: says.duplicateName }])
    }
    for (const text of ['{"x":"\\":"}', '[":)"]', '{"a" : ":", "b" :"\\\\" }']) {
      expect(parse(text)).toEqual({ ok: true, value: JSON.parse(text), text })
    }
  })

  it('keeps a byte order mark a string or a name begins with: "\ufeffa" and "a" are two names', () => {
    const text = '{"\ufeffa":"\ufeff","a":1}'
    expect(parse(text)).toEqual({ ok: true, value: JSON.parse(text), text })
  })

  it('names a number too small to keep however many zeros it is written with', () => {
    const tiny = `0.${'0'.repeat(330)}1`
    expect(issues(parse(`{"n":[0,${tiny}]}`))).toEqual([{ path: 'n.1', message: says.tooSmall }])
    expect(parse(`[0,0.${'0'.repeat(300)}]`)).toMatchObject({ ok: true })
  })

  it('names at most 20 issues', () => {
    const text = `[${Array.from({ length: 1000 }, () => '"\\ud800"').join(',')}]`
    expect(issues(parse(text))).toHaveLength(20)
  })

  it('reads any depth of nesting without overflowing the stack', () => {
    const depth = 30_000
    const text = `{"a":${'['.repeat(depth)}"\\ud800"${']'.repeat(depth)}}`
    const result = issues(parse(text))
    expect(result).toHaveLength(1)
    expect(parse(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toMatchObject({ ok: true })
  })
})
