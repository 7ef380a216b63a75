import { describe, expect, it } from 'vitest'
import { batchedLines } from './batched-lines.js'

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe('batchedLines', () => {
  it('writes the lines of one turn of the event loop in one call, in order', async () => {
    const writes: string[] = []
    const lines = batchedLines((text) => writes.push(text))
    lines.write('a\n')
    lines.write('b\n')
    expect(writes).toEqual([])
    await nextTurn()
    expect(writes).toEqual(['a\nb\n'])
    lines.write('c\n')
    await nextTurn()
    expect(writes).toEqual(['a\nb\n', 'c\n'])
  })

  it('writes at once past maxBytes', () => {
    const writes: string[] = []
    const lines = batchedLines((text) => writes.push(text), { maxBytes: 4 })
    lines.write('ab\n')
    lines.write('cd\n')
    expect(writes).toEqual(['ab\ncd\n'])
  })

  it('writes what is pending on flush', () => {
    const writes: string[] = []
    const lines = batchedLines((text) => writes.push(text))
    lines.write('last words\n')
    lines.flush()
    expect(writes).toEqual(['last words\n'])
  })
})
