import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ErrorBody } from './error-entry.js'
import { redactText } from './redact.js'
import { escapeControls, safeInLine } from './safe-in-line.js'

/** Turns zod issues into the `issues` of an error body, with dotted paths. */
export function describeIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): NonNullable<ErrorBody['issues']> {
  return issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }))
}

/** An error class a service maps to a status of its own, its message shown as it is. */
export type KnownError = [new (...args: never[]) => Error, ContentfulStatusCode]

/** An unexpected error as a structured log takes it: the request, and the error redacted. */
export type ErrorRecord = { requestId: string; method: string; path: string; error: string }

/**
 * The error handler of both micros (`app.onError(...)`): a known error answers its status with
 * its message; an `HTTPException` under 500 keeps its status; anything else is logged (secrets
 * redacted: a driver's message may quote a URL with its password) and answers a bare 500
 * `{"error":"internal error"}`, nothing of the internals shown.
 * @example app.onError(errorHandler({ log, known: [[DuplicateIdError, 409]] }))
 */
export function errorHandler({
  log,
  onError,
  known = [],
}: {
  /** Takes each line, newline included. */
  log: (line: string) => void
  /** Takes each error as a record instead of `log`'s line (a JSON log). */
  onError?: ((record: ErrorRecord) => void) | undefined
  known?: readonly KnownError[]
}) {
  return function respondToError(error: Error, c: Context): Response {
    for (const [kind, status] of known) {
      if (error instanceof kind) return c.json({ error: error.message }, status)
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ error: error.message || 'bad request' }, error.status)
    }
    const requestId = (c as Context<{ Variables: { requestId?: string } }>).get('requestId') ?? '-'
    const what = redactText(oneEntry(error))
    if (onError) {
      onError({ requestId, method: c.req.method, path: c.req.path, error: what })
      return c.json({ error: 'internal error' }, 500)
    }
    const path = safeInLine(c.req.path)
    log(`${new Date().toISOString()} ${requestId} error ${c.req.method} ${path}: ${what}\n`)
    return c.json({ error: 'internal error' }, 500)
  }
}

/**
 * An error as one entry of the log: its message with control characters escaped (a message may
 * quote what a request sent, `\n` included, which could forge a line of its own), then the
 * frames of its stack, each on a line of its own starting with white space as they do.
 */
function oneEntry(error: Error): string {
  const head = `${error.name}: ${error.message}`
  const stack = error.stack ?? head
  const frames = stack.startsWith(head) ? stack.slice(head.length) : ''
  return `${error.name}: ${escapeControls(error.message)}${frames}`
}
