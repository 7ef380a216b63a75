import { ObjectId } from 'mongodb'
import { describe, expect, it } from 'vitest'
import { toMongoFind } from './mongo-find.js'

const hex = '6740a1f2c3d4e5f6a7b8c9d0'
const scalar = { $not: { $type: 'array' } }

describe('toMongoFind', () => {
  it('reads everything in _id order without filters, sort or limit', () => {
    expect(toMongoFind({ filters: [] })).toEqual({ filter: {}, sort: { _id: 1 } })
  })

  it('matches a string, and the number, boolean or null it is the JSON text of', () => {
    const find = (value: string) => toMongoFind({ filters: [['year', value]] }).filter
    expect(find('Drama')).toEqual({ year: { $in: ['Drama'], ...scalar } })
    expect(find('1994')).toEqual({ year: { $in: ['1994', 1994], ...scalar } })
    expect(find('-2.5')).toEqual({ year: { $in: ['-2.5', -2.5], ...scalar } })
    expect(find('true')).toEqual({ year: { $in: ['true', true], ...scalar } })
    expect(find('null')).toEqual({ year: { $in: ['null', null], ...scalar, $exists: true } })
  })

  it('does not take other spellings of a number for it', () => {
    for (const text of ['1994.0', '1e3', '01', ' 1', '', '-0', 'NaN', 'Infinity', '0x10']) {
      expect(toMongoFind({ filters: [['year', text]] }).filter, text).toEqual({
        year: { $in: [text], ...scalar },
      })
    }
  })

  it('ands several filters, the same field twice included', () => {
    const { filter } = toMongoFind({
      filters: [
        ['genre', 'Drama'],
        ['genre', 'Crime'],
      ],
    })
    expect(filter).toEqual({
      $and: [{ genre: { $in: ['Drama'], ...scalar } }, { genre: { $in: ['Crime'], ...scalar } }],
    })
  })

  it('matches _id as the ObjectId its text names, and names no stored item can have not at all', () => {
    const find = (field: string, value: string) => toMongoFind({ filters: [[field, value]] }).filter
    expect(find('_id', hex)).toEqual({ _id: new ObjectId(hex) })
    const nothing = { _id: { $in: [] } }
    expect(find('_id', 'tt0111161')).toEqual(nothing)
    expect(find('_id', hex.toUpperCase())).toEqual(nothing)
    expect(find('crew.by', 'Scott')).toEqual(nothing)
    expect(find('$where', '1')).toEqual(nothing)
  })

  it('sorts by name or genre with _id ascending breaking ties, either way', () => {
    expect(toMongoFind({ filters: [], sort: { field: 'name', descending: false } }).sort).toEqual({
      name: 1,
      _id: 1,
    })
    expect(toMongoFind({ filters: [], sort: { field: 'genre', descending: true } }).sort).toEqual({
      genre: -1,
      _id: 1,
    })
  })

  it('sorts by id alone, which the unique index keeps free of ties', () => {
    expect(toMongoFind({ filters: [], sort: { field: 'id', descending: true } }).sort).toEqual({
      id: -1,
    })
  })

  it('asks for one item more than the page, to know whether another page follows', () => {
    expect(toMongoFind({ filters: [], limit: 20 }).limit).toBe(21)
  })

  it('starts after a position: by _id unsorted, by value then _id when sorted', () => {
    const _id = new ObjectId(hex)
    expect(toMongoFind({ filters: [], after: { _id: hex } }).filter).toEqual({ _id: { $gt: _id } })
    const after = { _id: hex, value: 'Heat' }
    expect(
      toMongoFind({ filters: [], sort: { field: 'name', descending: true }, after }).filter,
    ).toEqual({ $or: [{ name: { $lt: 'Heat' } }, { name: 'Heat', _id: { $gt: _id } }] })
    expect(
      toMongoFind({
        filters: [['genre', 'Drama']],
        sort: { field: 'name', descending: false },
        after,
      }).filter,
    ).toEqual({
      $and: [
        { genre: { $in: ['Drama'], ...scalar } },
        { $or: [{ name: { $gt: 'Heat' } }, { name: 'Heat', _id: { $gt: _id } }] },
      ],
    })
  })

  it('refuses a position that is not one of this store', () => {
    expect(() => toMongoFind({ filters: [], after: { _id: 'tt1' } })).toThrow(RangeError)
    expect(() =>
      toMongoFind({ filters: [], sort: { field: 'name', descending: false }, after: { _id: hex } }),
    ).toThrow(RangeError)
  })
})
