import { describe, expect, it } from 'vitest'
import { responseBody as asIs } from './response-body.js'
import { responseBody as shared } from './response-body.workerd.js'

const bytesOf = async (body: Uint8Array | Blob) =>
  body instanceof Blob ? new Uint8Array(await body.arrayBuffer()) : body
const list = (size: number, fill = 0x61) => new Uint8Array(size).fill(fill)

describe('responseBody on Node', () => {
  it('sends the bytes as they are, however often', () => {
    const bytes = list(64 * 1024)
    expect(asIs(bytes)).toBe(bytes)
    expect(asIs(bytes)).toBe(bytes)
  })
})

describe('responseBody on the Workers runtime', () => {
  it('sends bytes answered once as they are, then one Blob of the same bytes for every answer after', async () => {
    const bytes = list(64 * 1024)
    expect(shared(bytes)).toBe(bytes)
    const second = shared(bytes)
    expect(second).toBeInstanceOf(Blob)
    expect(await bytesOf(second)).toEqual(bytes)
    expect(shared(bytes)).toBe(second)
  })

  it('keeps a Blob per body: other bytes, even equal ones, get their own', async () => {
    const first = list(16 * 1024)
    const next = list(16 * 1024, 0x62)
    shared(first)
    shared(next)
    const firstBlob = shared(first)
    const nextBlob = shared(next)
    expect(firstBlob).not.toBe(nextBlob)
    expect(await bytesOf(firstBlob)).toEqual(first)
    expect(await bytesOf(nextBlob)).toEqual(next)
  })

  it('sends a small body (an item) or a very large one as it is, however often', () => {
    for (const bytes of [list(8 * 1024 - 1), list(8 * 1024 * 1024 + 1)]) {
      for (let i = 0; i < 3; i++) expect(shared(bytes)).toBe(bytes)
    }
  })
})
