import { maxNestingDepth } from '../../src/items/item.schema.js'
import { movies } from './test-app.js'

/**
 * A body the write routes refuse with 400, as JSON text (lone surrogates are spelt `\ud800`, as
 * a client would send them). `fields`: the paths the answer's `issues` name, when the test pins
 * them. `notInDocument`: why the document's schema cannot refuse it too, when it cannot.
 */
export type RefusedBody = { what: string; body: string; fields?: string[]; notInDocument?: string }

const item = JSON.stringify(movies.godfather)
const withField = (field: string) => `${item.slice(0, -1)},${field}}`
const nested = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`
const withFields = (fields: Record<string, unknown>) =>
  JSON.stringify({ ...movies.godfather, ...fields })

/** Bodies every JSON-object route refuses, before looking at the fields. */
const notAnObject: RefusedBody[] = [
  { what: 'invalid JSON', body: '{"id":"tt1",', notInDocument: 'not JSON: no schema sees it' },
  { what: 'an empty body', body: '', notInDocument: 'not JSON: no schema sees it' },
  { what: 'an array', body: `[${item}]` },
  { what: 'null', body: 'null' },
  { what: 'a string', body: '"tt0068646"' },
  { what: 'a number', body: '42' },
]

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
  { what: 'a rename to a lone surrogate', body: '{"id":"ren\\udfff"}', fields: ['id'] },
  { what: 'an empty object', body: '{}' },
  { what: 'a numeric name', body: '{"name":5}', fields: ['name'] },
  { what: 'a null genre', body: '{"genre":null}', fields: ['genre'] },
  { what: 'an empty new id', body: '{"id":""}', fields: ['id'] },
  { what: 'a control character in the new id', body: '{"id":"tt\\u0007"}', fields: ['id'] },
  { what: 'a new id of 201 characters', body: `{"id":"${'x'.repeat(201)}"}`, fields: ['id'] },
  { what: 'a name of 501 characters', body: `{"name":"${'x'.repeat(501)}"}`, fields: ['name'] },
]
