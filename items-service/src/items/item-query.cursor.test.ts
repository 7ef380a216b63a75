import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor } from './item-query.cursor.js'

const _id = '6740a1f2c3d4e5f6a7b8c9d0'
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
