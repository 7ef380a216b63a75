import type { MailLogRecord, ProviderAnswer, SendMailRequest } from './api-types.js'
import { nextCursor } from './link-header.js'
import { MailApiError } from './mail-api-error.js'
import { readJson } from './read-answer.js'
import { type Fetch, type HeadersInput, requestHeaders } from './request-headers.js'
import { type WaitOptions, waitForFinal } from './wait-for-status.js'
import { type RetryOptions, withRetries } from './with-retries.js'

/** What every request of a client shares. */
export type MailClientOptions = RetryOptions & {
  /** Sent as `x-apikey`: every call of mail-service needs one of its `API_KEYS`. */
  apiKey: string
  /** The fetch to call; by default `globalThis.fetch`, looked up at each call. */
  fetch?: Fetch | undefined
  /** Headers for every request; a call's `headers` go over them. */
  headers?: HeadersInput | undefined
}

/**
 * Per call: `signal` cancels it, a wait between tries included (the call then rejects with the
 * signal's reason); `headers` go with this call's requests only; the retry options override
 * the client's.
 */
export type CallOptions = RetryOptions & {
  signal?: AbortSignal | undefined
  headers?: HeadersInput | undefined
}

/**
 * Per send: `idempotencyKey` (1-255 printable ASCII characters) names the mail; by default a
 * new random one is made for the send. Give your own to make a send safe across restarts of
 * your process too (`signup-<user id>`): the service sends a key's mail once in 24 hours.
 */
export type SendOptions = CallOptions & { idempotencyKey?: string | undefined }

/** Which page of the mail log: `limit` records (1-1000, 100 by default), from `cursor` on. */
export type LogQuery = { limit?: number | undefined; cursor?: string | undefined }

/** A page of the mail log, newest first: `next` is the cursor of the following page, if any. */
export type MailLogPage = { records: MailLogRecord[]; next?: string | undefined }

/** The operations of mail-service. */
export type MailClient = {
  /**
   * `POST /sendmail` with an `Idempotency-Key`, retried with the same key after no answer, a
   * 5xx, a 409 and a 429: the mail goes out once, and the call resolves to the provider's
   * answer (the first one again, when a lost answer is replayed).
   */
  send(mail: SendMailRequest, options?: SendOptions): Promise<ProviderAnswer>
  /**
   * `send`, resolving also to the `_id` of the send's mail log record (its `Location`), for
   * `get` and `waitForFinal`; none for a replayed answer.
   */
  sendTracked(
    mail: SendMailRequest,
    options?: SendOptions,
  ): Promise<{ answer: ProviderAnswer; recordId: string | undefined }>
  /** `GET /maillog/{id}`: one record of this key, with its status and events. */
  get(id: string, options?: CallOptions): Promise<MailLogRecord>
  /**
   * Reads the record until its status is final (delivered, failed, complained, unsubscribed,
   * outbox) or `deadlineMs` (60000) has passed, every `everyMs` (2000); resolves with the last
   * record read, whose `status` says which.
   */
  waitForFinal(id: string, options?: WaitOptions & CallOptions): Promise<MailLogRecord>
  /** `GET /maillog`: a page of the mail log as the service answers it, newest first. */
  log(query?: LogQuery, options?: CallOptions): Promise<MailLogPage>
}

/** What the service takes as an `Idempotency-Key`. */
const idempotencyKeyShape = /^[\x20-\x7e]{1,255}$/

/** The global fetch, looked up at each call and called on `globalThis`. */
const globalFetch: Fetch = (input, init) => globalThis.fetch(input, init)

/**
 * A client for the mail-service at `baseUrl` (its origin, plus a path prefix if it is served
 * under one), for back ends on Node and Workers.
 * @param options `apiKey`, a `fetch` of your own, `headers` for every request, and how sends
 * are retried: `maxAttempts` (5), `maxRetryWaitMs` (30000), `attemptTimeoutMs` (30000)
 * @example
 * const mail = createMailClient('http://localhost:4001', { apiKey: 'my-mail-api-key-1' })
 * const answer = await mail.send({ email: 'ada@example.com', name: 'Ada' })
 * // { id: '<20261125120000.5f3c9a1b2d4e6f70@outbox.local>', message: 'Queued. Thank you.' }
 */
export function createMailClient(baseUrl: string | URL, options: MailClientOptions): MailClient {
  const { apiKey, fetch: send = globalFetch, headers, ...clientRetries } = options
  const root = String(baseUrl).replace(/\/+$/, '')

  const call = <T>(
    path: string,
    init: { method: 'GET' | 'POST'; body?: string; idempotencyKey?: string },
    perCall: CallOptions,
    read: (response: Response) => Promise<T>,
  ) => {
    const { signal, headers: callHeaders, ...callRetries } = perCall
    const attempt = async (attemptSignal: AbortSignal) => {
      const sent = requestHeaders(headers, callHeaders)
      sent.set('x-apikey', apiKey)
      if (init.body !== undefined) sent.set('content-type', 'application/json')
      if (init.idempotencyKey !== undefined) sent.set('idempotency-key', init.idempotencyKey)
      const response = await send(`${root}${path}`, {
        method: init.method,
        headers: sent,
        body: init.body ?? null,
        signal: attemptSignal,
      })
      return read(response)
    }
    return withRetries(attempt, signal, clientRetries, callRetries)
  }

  const sendTracked: MailClient['sendTracked'] = async (
    mail,
    { idempotencyKey = crypto.randomUUID(), ...perSend } = {},
  ) => {
    if (!idempotencyKeyShape.test(idempotencyKey)) {
      const shown = JSON.stringify(idempotencyKey)
      const error = `cannot send the Idempotency-Key ${shown}: it must be 1-255 printable ASCII characters`
      throw new MailApiError(0, { error })
    }
    const body = JSON.stringify(mail)
    return call(
      '/sendmail',
      { method: 'POST', body, idempotencyKey },
      perSend,
      async (response) => {
        const answer = await readJson<ProviderAnswer>(response)
        const recordId = /\/maillog\/([0-9a-f]{24})$/.exec(response.headers.get('location') ?? '')
        return { answer, recordId: recordId?.[1] }
      },
    )
  }
  const get: MailClient['get'] = (id, perCall = {}) =>
    call(`/maillog/${encodeURIComponent(id)}`, { method: 'GET' }, perCall, (response) =>
      readJson<MailLogRecord>(response),
    )

  return {
    send: async (mail, options) => (await sendTracked(mail, options)).answer,
    sendTracked,
    get,
    waitForFinal: (id, { deadlineMs, everyMs, ...perCall } = {}) =>
      waitForFinal(() => get(id, perCall), { deadlineMs, everyMs, signal: perCall.signal }),
    log: async (query = {}, perCall = {}) => {
      const search = new URLSearchParams()
      if (query.limit !== undefined) search.set('limit', String(query.limit))
      if (query.cursor !== undefined) search.set('cursor', query.cursor)
      const path = search.toString() === '' ? '/maillog' : `/maillog?${search}`
      return call(path, { method: 'GET' }, perCall, async (response) => {
        const records = await readJson<MailLogRecord[]>(response)
        const next = nextCursor(response.headers.get('link'))
        return next === undefined ? { records } : { records, next }
      })
    },
  }
}
