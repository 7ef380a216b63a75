import { describe, expect, it } from 'vitest'
import { EventStreamParser, type ParsedBlock } from './event-stream-parser.js'

/** Every block the pieces make, fed one after the other. */
function parse(pieces: string[], parser = new EventStreamParser()): ParsedBlock[] {
  return pieces.flatMap((piece) => parser.push(piece))
}

const created = { id: '7', type: 'created', data: '{"id":"tt1"}' }

describe('EventStreamParser', () => {
  it('reads an event: its type, id and data', () => {
    expect(parse(['event: created\nid: 7\ndata: {"id":"tt1"}\n\n'])).toEqual([created])
  })

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('ends lines at %s', (_name, end) => {
    const text = ['event: created', 'id: 7', 'data: {"id":"tt1"}', '', ''].join(end)
    expect(parse([text])).toEqual([created])
  })

  it('reads a CRLF split between two pieces as one line end', () => {
    expect(
      parse(['event: created\r', '\nid: 7\r', '\ndata: {"id":"tt1"}\r', '\n\r', '\n']),
    ).toEqual([created])
  })

  it('reads a CRLF whose LF comes alone as one line end, and the blank line after it', () => {
    expect(parse(['data: x\r', '\n', '\n', 'data: y\n\n'])).toEqual([
      { id: '', type: 'message', data: 'x' },
      { id: '', type: 'message', data: 'y' },
    ])
  })

  it('reads lines and fields split anywhere, one character at a time', () => {
    const text = 'event: created\r\nid: 7\rdata: {"id":"tt1"}\n\r\n'
    expect(parse([...text])).toEqual([created])
  })

  it('joins the data lines of an event with line feeds', () => {
    expect(parse(['data: one\ndata:two\ndata\ndata:  three\n\n'])).toEqual([
      { id: '', type: 'message', data: 'one\ntwo\n\n three' },
    ])
  })

  it('skips comments and unknown fields, and takes a line without a colon as a field', () => {
    const text = ': heartbeat\n\n:\nfoo: bar\nevent\nevent: updated\ndata: x\n\n'
    expect(parse([text])).toEqual([
      { id: '', type: 'message', data: null },
      { id: '', type: 'updated', data: 'x' },
    ])
  })

  it('dispatches a block without data as no event that moves the id', () => {
    expect(parse(['retry: 2000\nid: 41\n\n', 'event: created\ndata: x\n\n'])).toEqual([
      { id: '41', type: 'message', data: null },
      { id: '41', type: 'created', data: 'x' },
    ])
  })

  it('keeps the id for the blocks after it, an empty id clearing it, one with NUL ignored', () => {
    const parser = new EventStreamParser('5')
    expect(
      parse(['data: a\n\nid: 6\ndata: b\n\nid: 7\0\ndata: c\n\nid\ndata: d\n\n'], parser),
    ).toEqual([
      { id: '5', type: 'message', data: 'a' },
      { id: '6', type: 'message', data: 'b' },
      { id: '6', type: 'message', data: 'c' },
      { id: '', type: 'message', data: 'd' },
    ])
  })

  it('takes retry only when it is all digits, at once', () => {
    const parser = new EventStreamParser()
    expect(parser.retryMs).toBeUndefined()
    parser.push('retry: 2000\n')
    expect(parser.retryMs).toBe(2000)
    parser.push('retry: 1.5\nretry: -1\nretry:\nretry: 3s\n')
    expect(parser.retryMs).toBe(2000)
    parser.push('retry:500\n')
    expect(parser.retryMs).toBe(500)
  })

  it('holds back a block until its blank line, and an event type does not leak to the next', () => {
    const parser = new EventStreamParser()
    expect(parser.push('event: deleted\nid: 9\ndata: x\n')).toEqual([])
    expect(parser.push('\ndata: y\n\n')).toEqual([
      { id: '9', type: 'deleted', data: 'x' },
      { id: '9', type: 'message', data: 'y' },
    ])
  })
})
