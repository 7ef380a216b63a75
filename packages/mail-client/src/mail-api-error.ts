import type { ErrorBody } from './api-types.js'
import { retryAfterMs } from './retry-delay.js'

/**
 * What a call rejects with when mail-service answers an error status (after the retries it
 * allows), or an answer it cannot read: `status` is the HTTP status, `body` the service's JSON
 * error (`{ error, issues? }`), `retryAfterMs` the wait its `Retry-After` asked for (a 429's,
 * a 503's). A body that is not the service's (a proxy's HTML page) becomes
 * `{ error: '<status> <status text>' }`. Status 0: the client sent nothing (a refused
 * `idempotencyKey`). No answer at all rejects with the fetch's own error instead.
 */
export class MailApiError extends Error {
  override readonly name: string = 'MailApiError'
  readonly status: number
  readonly body: ErrorBody
  readonly retryAfterMs: number | undefined

  constructor(status: number, body: ErrorBody, retryAfterMs?: number) {
    super(describe(body))
    this.status = status
    this.body = body
    this.retryAfterMs = retryAfterMs
  }

  /** The error for a response that is not 2xx; reads its body. */
  static async fromResponse(response: Response): Promise<MailApiError> {
    const text = await response.text().catch(() => '')
    const body = parseErrorBody(text) ?? { error: statusOf(response) }
    return new MailApiError(response.status, body, retryAfterMs(response))
  }

  /** The error for an answer that is not what the call expects: `problem` says how. */
  static unreadable(response: Response, problem: string): MailApiError {
    return new MailApiError(response.status, { error: `${statusOf(response)}: ${problem}` })
  }
}

/** "502 Bad Gateway", or the status alone when the answer has no status text. */
function statusOf({ status, statusText }: Response): string {
  return `${status} ${statusText}`.trim()
}

function parseErrorBody(text: string): ErrorBody | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined
  const { error, issues } = parsed as { error?: unknown; issues?: unknown }
  if (typeof error !== 'string') return undefined
  return Array.isArray(issues) ? { error, issues } : { error }
}

/** "invalid request body (email: must be exactly one email address, …)", or the error alone. */
function describe({ error, issues = [] }: ErrorBody): string {
  if (issues.length === 0) return error
  const details = issues.map(({ path, message }) => (path ? `${path}: ${message}` : message))
  return `${error} (${details.join('; ')})`
}
