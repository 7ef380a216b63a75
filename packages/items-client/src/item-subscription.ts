import type { NoFields } from './api-types.js'
import { EventStreamParser } from './event-stream-parser.js'
import { type ItemEvent, itemEventOf } from './item-event.js'
import { ItemsApiError } from './items-api-error.js'
import { reconnectDelayMs, retryAfterMs } from './reconnect-delay.js'
import type { HeadersInput } from './request-headers.js'

/** Opens `GET /items/events`, resuming after `lastEventId` when there is one. */
export type OpenEventStream = (
  lastEventId: string | undefined,
  signal: AbortSignal,
) => Promise<Response>

/** How `subscribe` starts, reports and reconnects; every option may be left out. */
export type SubscribeOptions = {
  /** An event id seen before (`ItemEvent.id`): the events after it come first. */
  lastEventId?: string | undefined
  /** Ends the subscription when aborted, as `close()` does. */
  signal?: AbortSignal | undefined
  /** Headers for each request of the stream, over the client's. */
  headers?: HeadersInput | undefined
  /** Called each time the stream is open, from when no change is missed. */
  onOpen?: (() => void) | undefined
  /**
   * Called with each failure: an `ItemsApiError` for an error answer, the fetch's error for
   * none, an `Error` for a stream that broke or ended. `retryInMs` is the wait before the
   * next attempt, or undefined when the subscription has ended: the service cannot follow
   * changes (501), has no feed (404), or answers something other than an event stream.
   */
  onError?: ((error: unknown, retryInMs: number | undefined) => void) | undefined
  /** The wait before reconnecting while the service has not sent its own (`retry:`). */
  retryMs?: number | undefined
  /** The longest wait: each failure in a row doubles it, up to this. */
  maxRetryMs?: number | undefined
}

/** A running subscription. */
export type Subscription = {
  /** Ends it: the connection is cancelled, no reconnect is left waiting, no callback follows. */
  close(): void
  /** The id to resume from later (`lastEventId`), undefined before the stream named one. */
  readonly lastEventId: string | undefined
}

/** How one connection ended; `final` ends the subscription. */
type Outcome = { error: unknown; final?: boolean; opened?: boolean; retryAfterMs?: number }

/**
 * Follows the change feed with `open` (a fetch, so that it runs in Node and browsers alike and
 * can send headers), reconnecting after each failure (see `SubscribeOptions`). The callbacks
 * run one at a time, in the stream's order; one that throws does not stop the subscription:
 * its error is thrown again on its own, as an event listener's would be.
 */
export function subscribeToEvents<Fields extends object = NoFields>(
  open: OpenEventStream,
  onEvent: (event: ItemEvent<Fields>) => void,
  options: SubscribeOptions = {},
): Subscription {
  const { signal, onOpen, onError, retryMs = 1000, maxRetryMs = 30_000 } = options
  let lastEventId = options.lastEventId
  let serverRetryMs: number | undefined
  let closed = false
  let connection: AbortController | undefined
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let wake: (() => void) | undefined

  const close = () => {
    if (closed) return
    closed = true
    signal?.removeEventListener('abort', close)
    clearTimeout(timer)
    timer = undefined
    wake?.()
    connection?.abort()
    // A fetch that ignores its signal (an in-process app) still has its body cancelled.
    reader?.cancel().catch(() => {})
  }

  const call = (callback: () => void) => {
    if (closed) return
    try {
      callback()
    } catch (error) {
      queueMicrotask(() => {
        throw error
      })
    }
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (closed) return resolve()
      wake = resolve
      timer = setTimeout(() => {
        timer = undefined
        resolve()
      }, ms)
    })

  async function connect(): Promise<Outcome> {
    const controller = new AbortController()
    connection = controller
    let response: Response
    try {
      response = await open(lastEventId, controller.signal)
    } catch (error) {
      return { error }
    }
    if (closed) {
      await response.body?.cancel().catch(() => {})
      return { error: undefined }
    }
    if (!response.ok) {
      const final = response.status === 501 || response.status === 404
      const error = await ItemsApiError.fromResponse(response)
      return { error, final, retryAfterMs: retryAfterMs(response) }
    }
    const type = response.headers.get('content-type') ?? 'no Content-Type'
    if (!response.body || !/^text\/event-stream\s*(?:;|$)/i.test(type)) {
      await response.body?.cancel().catch(() => {})
      const error = ItemsApiError.unreadable(response, `the answer is ${type}, not an event stream`)
      return { error, final: true }
    }
    reader = response.body.getReader()
    call(() => onOpen?.())
    try {
      await follow(reader)
      return { error: new Error('the event stream ended'), opened: true }
    } catch (error) {
      reader.cancel().catch(() => {})
      return { error, opened: true }
    } finally {
      reader = undefined
      controller.abort()
    }
  }

  async function follow(body: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const parser = new EventStreamParser(lastEventId)
    const decoder = new TextDecoder()
    for (;;) {
      const { done, value } = await body.read()
      if (done || closed) return
      const blocks = parser.push(decoder.decode(value, { stream: true }))
      serverRetryMs = parser.retryMs ?? serverRetryMs
      for (const block of blocks) {
        const event = itemEventOf<Fields>(block)
        if (closed) return
        // Only once the block is read whole: a reconnect after a bad one replays it.
        lastEventId = block.id === '' ? undefined : block.id
        if (event) call(() => onEvent(event))
      }
    }
  }

  async function run() {
    let failures = 0
    while (!closed) {
      const { error, final, opened, retryAfterMs } = await connect()
      if (closed) return
      if (final) {
        call(() => onError?.(error, undefined))
        close()
        return
      }
      failures = opened ? 1 : failures + 1
      const delay = reconnectDelayMs(failures, {
        baseMs: serverRetryMs ?? retryMs,
        maxMs: maxRetryMs,
        retryAfterMs,
      })
      call(() => onError?.(error, delay))
      await sleep(delay)
    }
  }

  if (signal?.aborted) closed = true
  else {
    signal?.addEventListener('abort', close, { once: true })
    run().catch((error: unknown) => {
      call(() => onError?.(error, undefined))
      close()
    })
  }
  return {
    close,
    get lastEventId() {
      return lastEventId
    },
  }
}
