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

/** A record of the mail log: one successful send, with the provider's answer as `output`. */
export type MailLogRecord = {
  _id: string
  email: string
  name: string
  output: Record<string, unknown>
}

/** One field that failed validation: `path` is dotted (`email`). */
export type ValidationIssue = { path: string; message: string }

/** The JSON body of every error answer; `issues` comes with a 400 for an invalid request. */
export type ErrorBody = { error: string; issues?: ValidationIssue[] | undefined }
