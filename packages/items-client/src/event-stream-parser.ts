/**
 * One dispatch of a `text/event-stream`: `id` is the last event id as it stands then (it
 * carries over from earlier blocks), `type` the `event:` field (`message` without one), `data`
 * the `data:` lines joined with `\n`, or null for a block without data, which is no event but
 * may have moved `id`.
 */
export type ParsedBlock = { id: string; type: string; data: string | null }

/**
 * The event-stream format of the HTML standard (Server-Sent Events), read from decoded text as
 * it arrives: lines end with CRLF, LF or CR (a CRLF may be split between two chunks), a blank
 * line dispatches, `:` starts a comment, a field's value loses one leading space, unknown
 * fields are ignored, an `id` holding NUL is ignored, `retry` counts only when all digits.
 * A block the stream ends in the middle of is never dispatched.
 */
export class EventStreamParser {
  #pending = ''
  #afterCr = false
  #id: string
  #type = ''
  #data: string[] = []
  #retryMs: number | undefined

  /** @param lastEventId where the id starts, as a reconnect sent it in `Last-Event-ID` */
  constructor(lastEventId = '') {
    this.#id = lastEventId
  }

  /** The last `retry:` the stream sent, in milliseconds; undefined before any. */
  get retryMs(): number | undefined {
    return this.#retryMs
  }

  /** Reads the next piece of the stream; answers the blocks it completes, in order. */
  push(text: string): ParsedBlock[] {
    // The LF of a CRLF whose CR ended the previous piece.
    const chunk = this.#afterCr && text.startsWith('\n') ? text.slice(1) : text
    // Set before an empty piece returns: a lone LF ends the CR's line, not the next one's.
    this.#afterCr = chunk.endsWith('\r')
    if (chunk === '') return []
    const lines = (this.#pending + chunk).split(/\r\n|\r|\n/)
    this.#pending = lines.pop() ?? ''
    const blocks: ParsedBlock[] = []
    for (const line of lines) {
      const block = this.#line(line)
      if (block) blocks.push(block)
    }
    return blocks
  }

  #line(line: string): ParsedBlock | undefined {
    if (line === '') return this.#dispatch()
    if (line.startsWith(':')) return undefined
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    const raw = colon < 0 ? '' : line.slice(colon + 1)
    const value = raw.startsWith(' ') ? raw.slice(1) : raw
    if (field === 'event') this.#type = value
    else if (field === 'data') this.#data.push(value)
    else if (field === 'id' && !value.includes('\0')) this.#id = value
    else if (field === 'retry' && /^\d+$/.test(value)) this.#retryMs = Number(value)
    return undefined
  }

  #dispatch(): ParsedBlock {
    const block = {
      id: this.#id,
      type: this.#type || 'message',
      data: this.#data.length === 0 ? null : this.#data.join('\n'),
    }
    this.#type = ''
    this.#data = []
    return block
  }
}
