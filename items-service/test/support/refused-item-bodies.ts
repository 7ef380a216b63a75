import { maxNestingDepth } from '../../src/items/item.schema.js'
import { movies } from './test-app.js'

/**
 * A body the write routes refuse with 400, as JSON text (lone surrogates are spelt `\ud800`, as
 * a client would send them), or as bytes where they are not UTF-8. `fields`: the paths the
 * response's `issues` name, when the test pins them. `notInDocument`: why the document's schema
 * cannot refuse it too, when it cannot.
 */
export type RefusedBody = {
  what: string
  body: string | Uint8Array<ArrayBuffer>
  fields?: string[]
  notInDocument?: string
}

/**
 * The movie with `field` (JSON text of one or more fields; `~` stands for a byte) in place of
 * the movie's own of those names: each name once, unless `field` gives it twice.
 */
export const withField = (field: string) => {
  const names = Object.keys(JSON.parse(`{${field}}`))
  const rest = Object.entries(movies.godfather).filter(([name]) => !names.includes(name))
  return `${JSON.stringify(Object.fromEntries(rest)).slice(0, -1)},${field}}`
}
const nested = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`
const withFields = (fields: Record<string, unknown>) =>
  JSON.stringify({ ...movies.godfather, ...fields })

/** Bodies every JSON-object route refuses, before looking at the fields. */
const notAnObject: RefusedBody[] = [
  { what: 'invalid JSON', body: '{"id":"tt1",', notInDocument: 'not JSON: no schema sees it' },
  { what: 'an empty body', body: '', notInDocument: 'not JSON: no schema sees it' },
  { what: 'an array', body: `[${JSON.stringify(movies.godfather)}]` },
  { what: 'null', body: 'null' },
  { what: 'a string', body: '"tt0068646"' },
  { what: 'a number', body: '42' },
]

/** Why a schema cannot refuse what JSON.parse changes before any schema sees it. */
const changedByParsing = 'changed by parsing, before any schema sees it'

/** `text` as UTF-8, with the byte `0xff` (never in UTF-8) in place of each `~`. */
const withInvalidUtf8 = (text: string) =>
  Uint8Array.from(new TextEncoder().encode(text), (byte) => (byte === 0x7e ? 0xff : byte))

/**
 * JSON that a parser would change without a word: bytes that are not UTF-8 (U+FFFD), a number
 * out of range (null) or rounded, a name given twice (the first dropped). `body`: how each is
 * sent inside a body that is otherwise right.
 */
const changedSilently = (body: (field: string) => string): RefusedBody[] =>
  [
    ['bytes that are not UTF-8 in the name', '"name":"Ama~rcord"', 'name'],
    ['bytes that are not UTF-8 in a field name', '"n~":1', 'n\ufffd'],
    ['a number beyond the range of a double', '"year":1e400', 'year'],
    ['a number too small to keep', '"rating":1e-400', 'rating'],
    ['an integer beyond 2^53 that would be rounded', '"votes":9007199254740993', 'votes'],
    [
      'an integer beyond 2^53 written with a fraction of zeros',
      '"votes":9007199254740993.0',
      'votes',
    ],
    ['an integer beyond 2^53 written with an exponent', '"votes":9.007199254740993e15', 'votes'],
    [
      'an integer beyond 2^53 written with a negative exponent',
      '"votes":90071992547409930e-1',
      'votes',
    ],
    ['a field given twice', '"note":"Once","note":"Twice"', 'note'],
    ['a nested field given twice', '"cast":{"lead":"a","lead":"b"}', 'cast.lead'],
  ].map(([what, field, path]) => {
    const text = body(field as string)
    return {
      what: what as string,
      body: text.includes('~') ? withInvalidUtf8(text) : text,
      fields: [path as string],
      notInDocument: changedByParsing,
    }
  })

/** Field names a document database would misread, or that reach a prototype. */
const reservedNames: RefusedBody[] = [
  { what: 'a $set operator', body: '{"$set":{"name":"x"}}' },
  { what: 'a nested operator', body: withField('"rating":{"$gt":1}') },
  { what: 'a dotted name', body: withField('"cast.lead":"Brando"') },
  { what: 'a nested dotted name', body: withField('"cast":{"lead.actor":"Brando"}') },
  { what: '_id', body: withField('"_id":"000000000000000000000001"') },
  { what: '__proto__', body: withField('"__proto__":{"isAdmin":true}') },
  { what: 'a nested __proto__', body: withField('"meta":[{"__proto__":{"x":1}}]') },
  { what: 'constructor', body: withField('"constructor":{"prototype":{}}') },
  { what: 'prototype', body: withField('"prototype":1') },
]

/** Values nested deeper than the stores take, however deep. */
const tooDeep: RefusedBody[] = [maxNestingDepth, 40, 30_000].map((depth) => ({
  what: `values nested ${depth} levels below a field`,
  body: withField(`"deep":${nested(depth)}`),
}))

/**
 * Fields a write may not give, as JSON text: a lone UTF-16 surrogate, which no UTF-8 (so no
 * URL, no header) can carry, and the ids the service keeps for itself.
 */
const refusedFields: [what: string, field: string, path: string][] = [
  ['a lone high surrogate in the id', '"id":"lone\\ud800"', 'id'],
  ['a lone low surrogate in the name', '"name":"\\udfff"', 'name'],
  ['a reversed pair in the genre', '"genre":"\\udc00\\ud800"', 'genre'],
  ['a lone surrogate in another field', '"note":"x\\ud83c"', 'note'],
  ['a lone surrogate nested in a list', '"tags":["ok",{"t":"\\udead"}]', 'tags.1.t'],
  ['a lone surrogate in a field name', '"n\\ud800":1', 'n\\ud800'],
  ['the id "events"', '"id":"events"', 'id'],
  ['the id "."', '"id":"."', 'id'],
  ['the id ".."', '"id":".."', 'id'],
]
/** The fields above, in a body that has every other field right. */
const refusedInCreate = refusedFields.map(([what, field, path]) => ({
  what,
  body: withField(field),
  fields: [path],
}))
/** The fields above, alone in an update's body. */
const refusedInUpdate = refusedFields.map(([what, field, path]) => ({
  what,
  body: `{${field}}`,
  fields: [path],
}))

/** What `POST /items` refuses with 400. */
export const refusedOnCreate: RefusedBody[] = [
  ...notAnObject,
  ...reservedNames,
  ...tooDeep,
  ...refusedInCreate,
  ...changedSilently(withField),
  { what: 'a missing name and genre', body: '{"id":"tt1"}', fields: ['name', 'genre'] },
  { what: 'an empty object', body: '{}', fields: ['id', 'name', 'genre'] },
  { what: 'a numeric id', body: withFields({ id: 68646 }), fields: ['id'] },
  {
    what: 'a name that is a list',
    body: withFields({ name: ['The', 'Godfather'] }),
    fields: ['name'],
  },
  {
    what: 'a genre that is an object',
    body: withFields({ genre: { main: 'Crime' } }),
    fields: ['genre'],
  },
  { what: 'a null genre', body: withFields({ genre: null }), fields: ['genre'] },
  { what: 'an empty id', body: withFields({ id: '' }), fields: ['id'] },
  { what: 'an id of 201 characters', body: withFields({ id: 'x'.repeat(201) }), fields: ['id'] },
  {
    what: 'a name of 501 characters',
    body: withFields({ name: 'x'.repeat(501) }),
    fields: ['name'],
  },
  {
    what: 'a genre of 101 characters',
    body: withFields({ genre: 'x'.repeat(101) }),
    fields: ['genre'],
  },
  { what: 'a NUL in the id', body: withFields({ id: 'tt\u0000' }), fields: ['id'] },
  { what: 'a newline in the id', body: withFields({ id: 'tt1\n' }), fields: ['id'] },
  { what: 'a tab in the id', body: withFields({ id: 'tt\t1' }), fields: ['id'] },
  { what: 'a DEL in the id', body: withFields({ id: 'tt1\u007f' }), fields: ['id'] },
]

/** What `PUT /items/:id` refuses with 400. */
export const refusedOnUpdate: RefusedBody[] = [
  ...notAnObject,
  ...reservedNames,
  ...tooDeep,
  ...refusedInUpdate,
  ...changedSilently((field) => `{${field}}`),
  { what: 'a rename to a lone surrogate', body: '{"id":"ren\\udfff"}', fields: ['id'] },
  { what: 'an empty object', body: '{}' },
  { what: 'a numeric name', body: '{"name":5}', fields: ['name'] },
  { what: 'a null genre', body: '{"genre":null}', fields: ['genre'] },
  { what: 'an empty new id', body: '{"id":""}', fields: ['id'] },
  { what: 'a control character in the new id', body: '{"id":"tt\\u0007"}', fields: ['id'] },
  { what: 'a new id of 201 characters', body: `{"id":"${'x'.repeat(201)}"}`, fields: ['id'] },
  { what: 'a name of 501 characters', body: `{"name":"${'x'.repeat(501)}"}`, fields: ['name'] },
]
