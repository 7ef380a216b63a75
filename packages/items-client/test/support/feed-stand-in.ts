import type { ItemEvent } from '../../src/item-event.js'
import type { SubscribeOptions } from '../../src/item-subscription.js'
import { createItemsClient } from '../../src/items-client.js'
import type { Fetch } from '../../src/request-headers.js'

// A stand-in for `GET /items/events` that the subscription tests write to, and a client over it.

const encoder = new TextEncoder()

/** An open `text/event-stream` answer that the test writes to. */
export class OpenStream {
  cancelled = false
  readonly response: Response
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined

  constructor() {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller
      },
      cancel: () => {
        this.cancelled = true
      },
    })
    this.response = new Response(body, { headers: { 'content-type': 'text/event-stream' } })
  }

  send(text: string | Uint8Array) {
    this.#controller?.enqueue(typeof text === 'string' ? encoder.encode(text) : text)
  }

  end() {
    this.#controller?.close()
  }

  fail(error: unknown) {
    this.#controller?.error(error)
  }
}

export type Answer = () => Response | Promise<Response>

/**
 * `GET /items/events` stood in for: each request is recorded and gets the next of `answers`,
 * or, when none is left, a new open stream.
 */
export class FeedStandIn {
  readonly requests: { url: string; headers: Record<string, string>; signal: AbortSignal }[] = []
  readonly streams: OpenStream[] = []
  readonly answers: Answer[] = []

  readonly fetch: Fetch = async (url, init) => {
    const headers = Object.fromEntries(new Headers(init.headers))
    this.requests.push({ url, headers, signal: init.signal as AbortSignal })
    const answer = this.answers.shift()
    if (answer) return answer()
    const stream = new OpenStream()
    this.streams.push(stream)
    return stream.response
  }

  stream(index: number): OpenStream {
    const stream = this.streams[index]
    if (!stream) throw new Error(`no stream ${index} was opened`)
    return stream
  }

  get lastEventIds() {
    return this.requests.map(({ headers }) => headers['last-event-id'])
  }
}

/** The real timer: taken before any test fakes them. */
const realSetTimeout = setTimeout
/** Lets every pending read, fetch and callback run. */
export const settle = () => new Promise((resolve) => realSetTimeout(resolve, 0))

export const item = (id: string, rest: object = {}) => ({
  _id: '6740a1f2c3d4e5f6a7b8c9d0',
  id,
  name: 'A film',
  genre: 'Drama',
  ...rest,
})
export const change = (type: string, id: string, data: object) =>
  `event: ${type}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`

/**
 * A client over a stand-in feed that gives `answers` first, subscribed, recording what it
 * reports. The first request goes out at once.
 */
export function subscribed(options: SubscribeOptions = {}, ...answers: Answer[]) {
  const feed = new FeedStandIn()
  feed.answers.push(...answers)
  const events: ItemEvent[] = []
  const errors: [unknown, number | undefined][] = []
  const client = createItemsClient('http://api.test', { fetch: feed.fetch })
  const subscription = client.subscribe((event) => events.push(event), {
    onError: (error, retryInMs) => errors.push([error, retryInMs]),
    ...options,
  })
  return { feed, events, errors, subscription }
}
