import type { MailLogEntry } from '../../ports/mail-log.js'
import { completeLeftKeys } from '../../sendmail/left-keys.js'
import type { IdempotencyKeysTable } from './idempotency-keys-table.js'
import type { MailRecordsTable } from './mail-records-table.js'

/** MAIL_GIVE_UP_MS's default (`env.ts`), for an object whose bindings do not set it. */
const defaultGiveUpMs = 30_000

export type LeftKeysTables = {
  keys: IdempotencyKeysTable
  records: MailRecordsTable
  /** Runs one change in one storage transaction (the object's `transactionSync`). */
  inOneTransaction: <T>(work: () => T) => T
}

/**
 * The mail state object's pass at its start over the keys left without an answer whose send
 * its mail log holds (`completeLeftKeys`), read from its own tables; the object serves no call
 * before it ends. An object whose mail log is in a Deta Base finds none of them: a retry looks
 * its key up then. A pass that fails is logged and leaves the keys to the retries.
 * @param giveUpMs the Worker's MAIL_GIVE_UP_MS binding, as given
 */
export async function completeLeftKeysAtStart(
  { keys, records, inOneTransaction }: LeftKeysTables,
  giveUpMs: unknown,
): Promise<void> {
  const idempotency = {
    unanswered: async (now: number, limit: number) =>
      inOneTransaction(() => keys.unanswered(now, limit)),
    complete: async (...args: Parameters<IdempotencyKeysTable['complete']>) =>
      inOneTransaction(() => keys.complete(...args)),
  }
  const mailLog = {
    list: async (page: { limit: number; before?: string; owner?: string }) =>
      records
        .list('maillog', page)
        .map(({ id, json }) => ({ ...(JSON.parse(json) as MailLogEntry), _id: id })),
  }
  const ms = Number(giveUpMs)
  const deps = { idempotency, mailLog, giveUpMs: Number.isSafeInteger(ms) ? ms : defaultGiveUpMs }
  try {
    const completed = await completeLeftKeys(deps)
    if (completed > 0) {
      console.log(`mail state: completed ${completed} idempotency key(s) left mid-send`)
    }
  } catch (error) {
    console.error(`mail state: could not complete the keys left mid-send: ${error}`)
  }
}
