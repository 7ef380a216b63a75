/** One block of a `text/event-stream`, up to its blank line: its fields and comment lines. */
export type StreamBlock = {
  event?: string
  id?: string
  data?: string
  retry?: string
  comments: string[]
}

/**
 * Reads a Server-Sent Events body block by block, as a client sees it, for tests: each read
 * waits a bounded time, so that a missing event fails the test instead of hanging it.
 */
export class EventReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>
  readonly #decoder = new TextDecoder()
  #text = ''
  /** A read still waiting when a wait timed out: the next wait takes it up, nothing is lost. */
  #pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined

  #read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    this.#pending ??= this.#reader.read().finally(() => {
      this.#pending = undefined
    })
    return this.#pending
  }

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (!body) throw new Error('the answer has no body')
    this.#reader = body.getReader()
  }

  /** The next block, heartbeats included. @throws when none comes within `timeoutMs` or the stream ends */
  async block(timeoutMs = 3000): Promise<StreamBlock> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const end = this.#text.indexOf('\n\n')
      if (end >= 0) {
        const block = this.#text.slice(0, end)
        this.#text = this.#text.slice(end + 2)
        return parse(block)
      }
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no event within ${timeoutMs} ms; unread: ${this.#text}`)
      const read = await Promise.race([
        this.#read(),
        new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), left)),
      ])
      if (read === 'late') continue
      if (read.done) throw new Error(`the stream ended; unread: ${JSON.stringify(this.#text)}`)
      this.#text += this.#decoder.decode(read.value, { stream: true })
    }
  }

  /** The next block that is an event (skipping heartbeats and id-only blocks). */
  async event(timeoutMs = 3000): Promise<StreamBlock & { event: string; data: string }> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const block = await this.block(Math.max(1, deadline - Date.now()))
      if (block.event !== undefined && block.data !== undefined) {
        return block as StreamBlock & { event: string; data: string }
      }
    }
  }

  /** Resolves once the stream has ended (read to its end, or errored). */
  async ended(timeoutMs = 3000): Promise<'ended' | 'errored'> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`the stream is still open after ${timeoutMs} ms`)
      const read = await Promise.race([
        this.#read().catch(() => 'errored' as const),
        new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), left)),
      ])
      if (read === 'errored') return 'errored'
      if (read !== 'late' && read.done) return 'ended'
    }
  }

  /** Stops reading, as a client that goes away. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {})
  }
}

function parse(block: string): StreamBlock {
  const parsed: StreamBlock = { comments: [] }
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      parsed.comments.push(line.slice(1).trim())
      continue
    }
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'data')
      parsed.data = parsed.data === undefined ? value : `${parsed.data}\n${value}`
    else if (field === 'event' || field === 'id' || field === 'retry') parsed[field] = value
  }
  return parsed
}
