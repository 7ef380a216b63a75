import type { ErrorBody } from './api-types.js'

/**
 * What a client method rejects with when items-service answers an error status, or an answer
 * it cannot read: `status` is the HTTP status, `body` the service's JSON error
 * (`{ error, issues? }`). A body that is not the service's (a proxy's HTML page, say) becomes
 * `{ error: '<status> <status text>' }`; a 2xx that is not JSON keeps its status, and says so.
 * A request that gets no answer at all rejects with the fetch's own error instead; a request
 * the client refuses to send is an `InvalidRequestError` (status 0).
 */
export class ItemsApiError extends Error {
  override readonly name: string = 'ItemsApiError'
  readonly status: number
  readonly body: ErrorBody

  constructor(status: number, body: ErrorBody) {
    super(describe(body))
    this.status = status
    this.body = body
  }

  /** The error for a response that is not 2xx; reads its body. */
  static async fromResponse(response: Response): Promise<ItemsApiError> {
    const text = await response.text().catch(() => '')
    return new ItemsApiError(response.status, parseErrorBody(text) ?? { error: statusOf(response) })
  }

  /** The error for an answer that is not what the call expects: `problem` says how. */
  static unreadable(response: Response, problem: string): ItemsApiError {
    return new ItemsApiError(response.status, { error: `${statusOf(response)}: ${problem}` })
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

/**
 * "invalid request body (name: Too small: expected string to have >=1 characters)", or the
 * error alone.
 */
function describe({ error, issues = [] }: ErrorBody): string {
  if (issues.length === 0) return error
  const details = issues.map(({ path, message }) => (path ? `${path}: ${message}` : message))
  return `${error} (${details.join('; ')})`
}
