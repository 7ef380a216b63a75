// The API's shapes, written out so that the declarations need nothing of the service (zod,
// Node, its stores). Their names are the OpenAPI document's schema names;
// test/mail-client.types.test.ts holds them to the service's own schemas.

/**
 * The body of `POST /sendmail`: exactly one bare address (`ada@example.com`: no display name,
 * no list) and the name the greeting uses (1-100 characters, not blank, no control characters).
 */
export type SendMailRequest = { email: string; name: string }

/**
 * What `POST /sendmail` answers with 201: the mail provider's answer as it came (`id` and
 * `message`, and whatever else the provider adds), the same again for a replayed send.
 */
export type ProviderAnswer = { id: string; message: string; [field: string]: unknown }

/**
 * Where a mail stands: `accepted` by the provider; `deferred` after a temporary failure;
 * `delivered`; `failed` (a bounce); `complained` or `unsubscribed`; `outbox` when the outbox
 * kept it (never delivered).
 */
export type DeliveryStatus =
  | 'accepted'
  | 'deferred'
  | 'delivered'
  | 'failed'
  | 'complained'
  | 'unsubscribed'
  | 'outbox'

/** One of the provider's events of a mail; a failure says why. */
export type MailEvent = {
  event: 'accepted' | 'delivered' | 'failed' | 'opened' | 'clicked' | 'unsubscribed' | 'complained'
  /** ISO 8601, the provider's time of it. */
  at: string
  severity?: 'temporary' | 'permanent' | undefined
  reason?: string | undefined
  code?: number | undefined
  description?: string | undefined
}

/**
 * A record of the mail log: one successful send, with the provider's answer as `output`, its
 * status and the provider's events, in the order they happened.
 */
export type MailLogRecord = {
  _id: string
  email: string
  name: string
  output: Record<string, unknown>
  status: DeliveryStatus
  events: MailEvent[]
}

/** One field that failed validation: `path` is dotted (`email`). */
export type ValidationIssue = { path: string; message: string }

/** The JSON body of every error answer; `issues` comes with a 400 for an invalid request. */
export type ErrorBody = { error: string; issues?: ValidationIssue[] | undefined }
