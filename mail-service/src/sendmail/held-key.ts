import { fingerprintOf, type IdempotencyRecord } from '../ports/idempotency-store.js'
import { firstIdAt, type MailLog, type MailLogEntry, type Stored } from '../ports/mail-log.js'
import { failure, type SendMailOutcome } from './outcome.js'
import { answerOfLogged } from './provider-answer.js'
import type { SendMailDeps } from './send-mail.js'

/**
 * How long a key without an answer may belong to a request in progress: a send is followed up
 * to MAIL_GIVE_UP_MS, and a minute more covers the stores and the clocks of other instances.
 */
export const inProgressForMs = (giveUpMs: number) => giveUpMs + 60_000

export const outcomeUnknown =
  'the outcome of the request with this Idempotency-Key is unknown (the mail provider did not ' +
  'answer, the connection to it was lost, or the service stopped mid-send): the mail may have been sent, so it is not sent ' +
  'again with this key; GET /maillog lists what was sent, and a new key sends again'

/** Where a request finds its key held: by whom, and what this process knows of it. */
export type HeldKey = {
  key: string
  held: IdempotencyRecord
  fingerprint: string
  /** The digest of the caller's API key: the owner of the records its sends logged. */
  owner: string
  now: number
}

/**
 * The answer to a key an earlier request holds: its kept answer again (422 for another body);
 * 409 while it may still be in progress; then, its outcome found in the mail log (its process
 * ended between the send and keeping its answer), that answer, now kept under the key; or 409
 * saying its outcome is unknown. A key that may have sent a mail never sends again.
 */
export async function heldOutcome(
  deps: SendMailDeps,
  { key, held, fingerprint, owner, now }: HeldKey,
): Promise<SendMailOutcome> {
  if (held.fingerprint !== fingerprint) {
    return failure(422, 'this Idempotency-Key was used with another request body')
  }
  if (held.answer) return replay(held.answer)
  if (!held.orphaned && now - held.takenAt < inProgressForMs(deps.giveUpMs)) {
    return failure(409, 'a request with this Idempotency-Key is in progress', {
      'retry-after': '1',
    })
  }
  const logged = await loggedSendOf(deps, held, owner).catch((error: unknown) => {
    deps.logError(`sendmail: the mail log did not tell a held key's outcome: ${error}`)
    return undefined
  })
  if (!logged) return failure(409, outcomeUnknown)
  const answer = answerOfLogged(logged)
  await deps.idempotency.complete(key, answer, held.takenAt).catch((error: unknown) => {
    deps.logError(`sendmail: could not keep the answer of an Idempotency-Key: ${error}`)
  })
  return replay(answer)
}

function replay({ status, body }: { status: 201 | 202; body: string }): SendMailOutcome {
  return { status, body, headers: { 'idempotent-replayed': 'true' } }
}

/** The clocks of two instances may differ by this much. */
const skewMs = 60_000

/**
 * The mail log's record of the send a key's request made, if it logged one: the earliest of
 * the caller's records with the request's body, logged between the take and the end of its
 * follow-up (the ids hold their time, in seconds).
 */
export async function loggedSendOf(
  { mailLog, giveUpMs }: { mailLog: Pick<MailLog<MailLogEntry>, 'list'>; giveUpMs: number },
  held: IdempotencyRecord,
  owner: string,
): Promise<Stored<MailLogEntry> | undefined> {
  const before = firstIdAt(new Date(held.takenAt + inProgressForMs(giveUpMs) + skewMs))
  const records = await mailLog.list({ owner, before, limit: 100 })
  const since = held.takenAt - skewMs
  for (const record of records.reverse()) {
    if (Number.parseInt(record._id.slice(0, 8), 16) * 1000 < since - 1000) continue
    const fingerprint = await fingerprintOf({ email: record.email, name: record.name })
    if (fingerprint === held.fingerprint) return record
  }
  return undefined
}
