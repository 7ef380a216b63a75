import type { ContentfulStatusCode } from 'hono/utils/http-status'

/** The status of an answer that is not a send the provider took: ours, or the provider's own. */
export type FailureStatus = Exclude<ContentfulStatusCode, 201 | 202>

/**
 * The answer to `POST /sendmail`: a send the provider took (its 201 with the provider's bytes,
 * or the 202 of an answer that could not be read; first or replayed), or why not.
 */
export type SendMailOutcome = (
  | { status: 201 | 202; body: string }
  | { status: FailureStatus; body: { error: string } }
) & {
  headers?: Record<string, string>
  /** A send that outlived the client's wait (504), settling on its own: keep it running. */
  followUp?: Promise<void>
}

/** An answer that is not a send the provider took: a status and why. */
export function failure(
  status: number,
  error: string,
  headers?: Record<string, string>,
): SendMailOutcome {
  // A provider's status is any number; hono names the statuses it knows, one by one.
  return { status: status as FailureStatus, body: { error }, ...(headers && { headers }) }
}
