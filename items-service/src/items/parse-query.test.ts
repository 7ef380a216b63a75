import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor, parseItemQuery } from './parse-query.js'

const _id = '6740a1f2c3d4e5f6a7b8c9d0'
const issuesOf = (search: string) => {
  const parsed = parseItemQuery(search)
  return 'issues' in parsed ? parsed.issues : []
}

describe('parseItemQuery', () => {
  it('reads every other parameter as an exact-match filter, decoded, in order', () => {
    expect(parseItemQuery('?genre=Crime&year=1994&title=Am%C3%A9lie+2001&empty=&bare')).toEqual({
      query: {
        filters: [
          ['genre', 'Crime'],
          ['year', '1994'],
          ['title', 'Amélie 2001'],
          ['empty', ''],
          ['bare', ''],
        ],
      },
      parameters: 'genre=Crime&year=1994&title=Am%C3%A9lie%202001&empty=&bare=',
    })
  })

  it('reads sort, limit and a cursor of the same sort', () => {
    const cursor = encodeCursor({ _id, value: 'A' }, { field: 'name', descending: true })
    expect(parseItemQuery(`?limit=20&sort=-name&cursor=${cursor}&genre=Crime`)).toEqual({
      query: {
        filters: [['genre', 'Crime']],
        sort: { field: 'name', descending: true },
        limit: 20,
        after: { _id, value: 'A' },
      },
      parameters: 'limit=20&sort=-name&genre=Crime',
    })
    for (const sort of ['id', '-id', 'genre', '-genre', 'name']) {
      expect(parseItemQuery(`sort=${sort}`)).toHaveProperty(
        'query.sort.field',
        sort.replace('-', ''),
      )
    }
  })

  it('skips empty pairs', () => {
    expect(parseItemQuery('?&genre=Crime&&')).toEqual({
      query: { filters: [['genre', 'Crime']] },
      parameters: 'genre=Crime',
    })
  })

  it('refuses a limit that is not an integer from 1 to 1000', () => {
    expect(parseItemQuery('?limit=1000')).toHaveProperty('query.limit', 1000)
    for (const limit of ['0', '1001', 'abc', '1.5', '', '-1', '1e2', ' 5', '99999']) {
      expect(issuesOf(`?limit=${encodeURIComponent(limit)}`), limit).toEqual([
        { path: 'limit', message: 'must be an integer from 1 to 1000' },
      ])
    }
  })

  it('refuses a sort by anything but id, name or genre', () => {
    for (const sort of ['year', '+name', 'Name', '--name', '', 'constructor', 'name,genre']) {
      expect(issuesOf(`?sort=${encodeURIComponent(sort)}`), sort).toEqual([
        { path: 'sort', message: 'must be one of id, -id, name, -name, genre, -genre' },
      ])
    }
  })

  it('refuses field names a document database would misread, or that reach a prototype', () => {
    for (const name of ['$where', 'a.b', '__proto__', 'constructor', 'prototype', '_id', '']) {
      expect(issuesOf(`?${encodeURIComponent(name)}=x`), name).toEqual([
        { path: name, message: expect.any(String) },
      ])
    }
    expect(issuesOf(`?${'f'.repeat(100)}=x`)).toEqual([])
    expect(issuesOf(`?${'f'.repeat(101)}=x`)).toEqual([
      { path: 'f'.repeat(101), message: 'field names must not be longer than 100 characters' },
    ])
  })

  it('refuses the filters object sent as a deep object, saying how to send it', () => {
    expect(issuesOf('?filters[genre]=Drama&filters%5Byear%5D=1994')).toEqual([
      {
        path: 'filters[genre]',
        message: "filters are one parameter per field: send 'genre=…', not 'filters[genre]=…'",
      },
      {
        path: 'filters[year]',
        message: "filters are one parameter per field: send 'year=…', not 'filters[year]=…'",
      },
    ])
    expect(issuesOf('?filters=Drama&filter[genre]=x')).toEqual([])
  })

  it('refuses a parameter given twice, once', () => {
    expect(issuesOf('?genre=Crime&genre=Drama&genre=x&limit=1&limit=1')).toEqual([
      { path: 'genre', message: 'must be given at most once' },
      { path: 'limit', message: 'must be given at most once' },
    ])
  })

  it('refuses what is not percent-encoded UTF-8', () => {
    expect(issuesOf('?genre=%E0%A4%A')).toEqual([
      { path: 'genre', message: 'is not percent-encoded UTF-8' },
    ])
    expect(issuesOf('?genre=%ED%A0%80')).toHaveLength(1)
  })

  it('refuses a cursor of another sort, or one it cannot read, naming every problem', () => {
    const plain = encodeCursor({ _id }, undefined)
    expect(issuesOf(`?sort=name&cursor=${plain}`)).toEqual([
      { path: 'cursor', message: expect.stringContaining('another sort') },
    ])
    expect(issuesOf('?cursor=abc&limit=0')).toEqual([
      { path: 'limit', message: expect.any(String) },
      { path: 'cursor', message: expect.stringContaining('not a cursor') },
    ])
    // A refused sort is the one problem: the cursor may well be right for the sort meant.
    expect(issuesOf(`?sort=nam&cursor=${plain}`)).toEqual([
      { path: 'sort', message: expect.any(String) },
    ])
  })
})

const byName = { field: 'name', descending: false } as const
const base64url = (text: string) => Buffer.from(text).toString('base64url')

describe('page cursors', () => {
  it('give back the position they were made of, for the same order', () => {
    const position = { _id, value: 'Amélie 😀 "quoted" & more' }
    expect(decodeCursor(encodeCursor(position, byName), byName)).toEqual({ position })
    expect(decodeCursor(encodeCursor({ _id }, undefined), undefined)).toEqual({
      position: { _id },
    })
  })

  it('are URL-safe as they are', () => {
    const cursor = encodeCursor({ _id, value: '?&=/+ é'.repeat(50) }, byName)
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
  })

  it('refuse a cursor made for another order, or for none', () => {
    const sorted = encodeCursor({ _id, value: 'A' }, byName)
    const plain = encodeCursor({ _id }, undefined)
    const problem = expect.stringContaining('another sort')
    expect(decodeCursor(sorted, { ...byName, descending: true })).toEqual({ problem })
    expect(decodeCursor(sorted, { field: 'genre', descending: false })).toEqual({ problem })
    expect(decodeCursor(sorted, undefined)).toEqual({ problem })
    expect(decodeCursor(plain, byName)).toEqual({ problem })
  })

  it('refuse what this service would not have made', () => {
    const made = encodeCursor({ _id }, undefined)
    for (const cursor of [
      '',
      'x',
      `${made}=`,
      `${made}.`,
      made.slice(0, -1),
      base64url('not json'),
      base64url('{"_id":"6740a1f2c3d4e5f6a7b8c9d0"}'),
      base64url('["6740A1F2C3D4E5F6A7B8C9D0"]'),
      base64url('["6740a1f2c3d4e5f6a7b8c9d"]'),
      base64url('["name","6740a1f2c3d4e5f6a7b8c9d0"]'),
      base64url('["name",1,"6740a1f2c3d4e5f6a7b8c9d0"]'),
      Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]).toString('base64url'),
      'A'.repeat(9000),
    ]) {
      expect(decodeCursor(cursor, undefined), cursor).toEqual({
        problem: expect.stringContaining('not a cursor'),
      })
    }
  })
})
