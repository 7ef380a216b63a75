import type { Fetch } from '../../src/request-headers.js'

// A stand-in for `POST /sendmail` as far as retries meet it: a send with a key seen before
// gets the first answer again and sends nothing; and each request may first meet a fault.

/**
 * What a request meets instead of the service's answer: `lose-answer` (the mail is sent, the
 * answer lost on its way back), `no-answer` (the request never arrives), `hang` (no answer ever,
 * whatever the signal says), or an answer of the test's own (nothing sent).
 */
export type Fault = 'lose-answer' | 'no-answer' | 'hang' | (() => Response)

export type Sent = {
  /** When it came, by the test's clock (fake timers make it exact). */
  at: number
  method: string
  url: string
  headers: Record<string, string>
  body: unknown
}

export class SendmailStandIn {
  readonly requests: Sent[] = []
  /** Each mail sent, with the key it came with. */
  readonly outbox: { key: string | undefined; email: string; name: string }[] = []
  /** What the next requests meet, in order; once none is left, the service answers. */
  readonly faults: Fault[] = []
  readonly #answers = new Map<string, string>()

  readonly fetch: Fetch = async (url, init) => {
    const headers = Object.fromEntries(new Headers(init.headers))
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body
    this.requests.push({ at: Date.now(), method: init.method ?? 'GET', url, headers, body })
    const fault = this.faults.shift()
    if (fault === 'no-answer') throw new TypeError('fetch failed')
    if (fault === 'hang') return new Promise<never>(() => {})
    if (typeof fault === 'function') return fault()
    const answer = this.#send(headers['idempotency-key'], body as { email: string; name: string })
    if (fault === 'lose-answer') throw new TypeError('fetch failed: other side closed')
    return answer
  }

  #send(key: string | undefined, mail: { email: string; name: string }): Response {
    const kept = key === undefined ? undefined : this.#answers.get(key)
    if (kept !== undefined) {
      return new Response(kept, {
        status: 201,
        headers: { ...json, 'idempotent-replayed': 'true' },
      })
    }
    this.outbox.push({ key, ...mail })
    const answer = JSON.stringify({
      id: `<${this.outbox.length}@outbox.local>`,
      message: 'Queued. Thank you.',
    })
    if (key !== undefined) this.#answers.set(key, answer)
    return new Response(answer, { status: 201, headers: json })
  }

  /** The `Idempotency-Key` of each request. */
  get keys(): (string | undefined)[] {
    return this.requests.map(({ headers }) => headers['idempotency-key'])
  }

  /** The wait before each request after the first, in ms. */
  get waits(): number[] {
    return this.requests.slice(1).map(({ at }, index) => at - (this.requests[index]?.at ?? at))
  }
}

const json = { 'content-type': 'application/json' }

/** An error answer as the service makes them, with any headers given. */
export const refusal =
  (status: number, error: string, headers: Record<string, string> = {}) =>
  () =>
    Response.json({ error }, { status, headers })
