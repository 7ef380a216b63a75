import { describe, expect, it } from 'vitest'
import { findReservedFieldNames, maxNestingDepth } from './item.schema.js'

const item = { id: 'tt1', name: 'Heat', genre: 'Crime' }

describe('findReservedFieldNames', () => {
  it('finds nothing in an ordinary item with nested data', () => {
    expect(findReservedFieldNames({ ...item, cast: [{ name: 'Pacino' }], meta: { a: 1 } })).toEqual(
      [],
    )
  })

  it.each(['_id', '__proto__', 'constructor', 'prototype'])('refuses %s at the top', (name) => {
    const body = JSON.parse(`{"id":"tt1","${name}":1}`)
    expect(findReservedFieldNames(body)).toEqual([
      { path: [name], message: `'${name}' is a reserved field name` },
    ])
  })

  it('allows _id below the top, where it is ordinary data', () => {
    expect(findReservedFieldNames({ ...item, source: { _id: 'x' } })).toEqual([])
  })

  it('refuses prototype names at any depth, in objects and arrays', () => {
    const body = JSON.parse('{"a":{"b":[{"__proto__":{}}]},"c":{"constructor":1}}')
    expect(findReservedFieldNames(body)).toEqual([
      { path: ['a', 'b', 0, '__proto__'], message: "'__proto__' is a reserved field name" },
      { path: ['c', 'constructor'], message: "'constructor' is a reserved field name" },
    ])
  })

  it('refuses operators and dotted names at any depth', () => {
    expect(findReservedFieldNames({ $set: { name: 'x' }, a: { $gt: 1 }, 'b.c': 1 })).toEqual([
      { path: ['$set'], message: 'field names must not start with $' },
      { path: ['a', '$gt'], message: 'field names must not start with $' },
      { path: ['b.c'], message: 'field names must not contain .' },
    ])
  })

  it('reports a reserved name inside a reserved name too', () => {
    expect(findReservedFieldNames({ $set: { 'a.b': 1 } })).toHaveLength(2)
  })

  it('finds nothing in values that are not objects', () => {
    for (const value of [null, 'text', 42, true, []]) {
      expect(findReservedFieldNames(value)).toEqual([])
    }
  })
})

describe('findReservedFieldNames on nesting', () => {
  const nest = (depth: number): unknown => (depth === 0 ? 'leaf' : [nest(depth - 1)])

  it(`allows values ${maxNestingDepth} levels deep`, () => {
    expect(findReservedFieldNames({ ...item, a: nest(maxNestingDepth - 1) })).toEqual([])
    expect(findReservedFieldNames({ cast: [{ name: 'Pacino', roles: ['Vincent'] }] })).toEqual([])
  })

  it('refuses a value one level deeper, naming where', () => {
    expect(findReservedFieldNames({ ...item, a: { b: nest(maxNestingDepth - 1) } })).toEqual([
      { path: ['a', 'b', 0, 0, 0, 0], message: expect.stringMatching(/nest/) },
    ])
  })

  it('stops at the limit however deep the value goes', () => {
    const deep = JSON.parse(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)
    expect(findReservedFieldNames(deep)).toHaveLength(1)
  })
})
