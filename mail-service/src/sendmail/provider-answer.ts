import type { SendResult } from '../mailer/mailer.js'
import type { KeptResponse } from '../ports/idempotency-store.js'
import type { MailLogEntry } from '../ports/mail-log.js'

/** A send the provider took: the answer the client gets (and a retry with its key), and the log's. */
export type SentAnswer = KeptResponse & { output: Record<string, unknown> }

/**
 * The answer to a send the provider took: its 201 with the provider's bytes, or, when its 2xx
 * could not be read, a 202 of ours that says so; the mail log keeps the provider's answer, or
 * `{ status, unreadable }` in its place.
 */
export function sentAnswer(
  result: Extract<SendResult, { outcome: 'sent' | 'sent-unreadable' }>,
): SentAnswer {
  if (result.outcome === 'sent') return { status: 201, body: result.body, output: result.output }
  const output = { status: result.status, unreadable: result.reason }
  return { status: 202, body: unreadableBody(output), output }
}

/** The answer a logged send got, for a key whose process ended before keeping it. */
export function answerOfLogged({ output }: MailLogEntry): KeptResponse {
  const { status, unreadable } = output
  if (typeof unreadable === 'string' && typeof status === 'number') {
    return { status: 202, body: unreadableBody({ status, unreadable }) }
  }
  return { status: 201, body: JSON.stringify(output) }
}

function unreadableBody({ status, unreadable }: { status: number; unreadable: string }): string {
  const message = `sent: the mail provider took the message (status ${status}), but ${unreadable}`
  return JSON.stringify({ message })
}
