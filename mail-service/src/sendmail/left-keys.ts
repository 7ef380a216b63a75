import type { IdempotencyStore } from '../ports/idempotency-store.js'
import type { MailLog, MailLogEntry } from '../ports/mail-log.js'
import { loggedSendOf } from './held-key.js'
import { answerOfLogged } from './provider-answer.js'

export type LeftKeysDeps = {
  idempotency: Pick<IdempotencyStore, 'unanswered' | 'complete'>
  mailLog: Pick<MailLog<MailLogEntry>, 'list'>
  /** MAIL_GIVE_UP_MS: how long after its take a key's send may still have been logged. */
  giveUpMs: number
}

/** The most keys one pass looks up: the log is read once for each. */
const maxKeysPerPass = 500

/**
 * Completes, from the mail log, the keys a process left without an answer though their send
 * went out (it ended between logging the send and keeping its answer), as a retry with such a
 * key would, but before any retry comes: each is matched to its owner's record of the same
 * body, logged from its take to the end of its follow-up (`loggedSendOf`), and gets that
 * send's answer, as if its own process had kept it. A key whose send the log does not hold
 * stays as it is (in progress in another process, or of unknown outcome), and so does one
 * taken by a release before keys had owners: a retry looks it up then. Resolves with how many
 * keys it completed; a key it could not complete is left to the next pass or to a retry.
 */
export async function completeLeftKeys(
  deps: LeftKeysDeps,
  now = Date.now(),
  limit = maxKeysPerPass,
): Promise<number> {
  let completed = 0
  for (const { key, record } of await deps.idempotency.unanswered(now, limit)) {
    if (record.owner === undefined) continue
    const logged = await loggedSendOf(deps, record, record.owner)
    if (!logged) continue
    await deps.idempotency.complete(key, answerOfLogged(logged), record.takenAt)
    completed++
  }
  return completed
}
