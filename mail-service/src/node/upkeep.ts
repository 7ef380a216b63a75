import type { IdempotencyStore } from '../ports/idempotency-store.js'
import type { MailEvents } from '../ports/mail-events.js'
import type { MailLog, MailLogEntry } from '../ports/mail-log.js'
import type { SendCounter } from '../ports/send-counter.js'
import { completeLeftKeys } from '../sendmail/left-keys.js'

const dayMs = 86_400_000

export type UpkeepOptions = {
  mailLog: MailLog<MailLogEntry>
  /** The outbox's messages, kept as long as the mail log's records. */
  outbox?: { prune(olderThan: Date): Promise<number> } | undefined
  idempotency: IdempotencyStore
  /** Mailgun's events, kept as long as the records they are filed with. */
  events?: MailEvents | undefined
  counter: SendCounter
  retentionDays: number
  /** MAIL_GIVE_UP_MS, for matching keys left without an answer to their sends. */
  giveUpMs: number
  log: (line: string) => void
  /** How often, after the first run at once. */
  everyMs?: number
}

/**
 * Tidies the stores at start and then every hour: completes the idempotency keys a process
 * left without an answer whose send is in the mail log (`completeLeftKeys`: a crash between
 * the two), and forgets what the stores no longer need: mail log (and outbox) records older
 * than MAILLOG_RETENTION_DAYS and the events of that age, expired idempotency keys, send counts
 * outside their window. A failed run is logged and tried again at the next. Resolves once the
 * first run is done (so that a start never serves what it is about to forget, and a retry
 * finds its key completed) with a stop function.
 */
export async function keepStoresTidy({
  mailLog,
  outbox,
  idempotency,
  events,
  counter,
  retentionDays,
  giveUpMs,
  log,
  everyMs = 3_600_000,
}: UpkeepOptions): Promise<() => void> {
  const run = async () => {
    const now = Date.now()
    // Before the keys are pruned: a completed key is kept as long as any other.
    await completeLeftKeys({ idempotency, mailLog, giveUpMs }, now).then(
      (completed) => {
        if (completed > 0) {
          log(`upkeep: completed ${completed} idempotency key(s) left mid-send, from the mail log`)
        }
      },
      (error: unknown) => log(`upkeep failed to complete the keys left mid-send: ${error}`),
    )
    const cutoff = new Date(now - retentionDays * dayMs)
    const results = await Promise.allSettled([
      mailLog.prune(cutoff),
      idempotency.prune(now),
      counter.prune(now),
      outbox?.prune(cutoff) ?? Promise.resolve(0),
      events?.prune(cutoff) ?? Promise.resolve(0),
    ])
    const [logged, keys, buckets, captured] = results.map((result) =>
      result.status === 'fulfilled' ? result.value : 0,
    )
    const records = (logged ?? 0) + (captured ?? 0)
    if (records || keys || buckets) {
      log(
        `upkeep: forgot ${records} mail log record(s) older than ${retentionDays} days, ` +
          `${keys} expired idempotency key(s), ${buckets} send count(s)`,
      )
    }
    for (const result of results) {
      if (result.status === 'rejected') log(`upkeep failed: ${String(result.reason)}`)
    }
  }
  await run()
  const timer = setInterval(run, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
