import {
  DeadlineExceededError,
  StoreFullError,
  StoreUnavailableError,
  withDeadline,
} from '@movies-and-mail/store-kit'
import { keyDigest } from '../api-keys/key-owner.js'
import { composeMail, type Mailer, type MailTemplate, type SendResult } from '../mailer/mailer.js'
import {
  fingerprintOf,
  type IdempotencyStore,
  idempotencyKeyTtlMs,
  scopedKey,
} from '../ports/idempotency-store.js'
import type { MailLog, MailLogEntry } from '../ports/mail-log.js'
import type { Admission, SendCounter } from '../ports/send-counter.js'
import { bucketsFor, type RateLimits } from '../rate-limits/buckets.js'
import { heldOutcome, outcomeUnknown } from './held-key.js'
import { failure, type SendMailOutcome } from './outcome.js'
import { sentAnswer } from './provider-answer.js'

/**
 * What became of one send, for metrics: sent (the provider took it), replayed (an
 * `Idempotency-Key` answered its first answer again), rate-limited (by the recipient's limit or
 * the key's), failed (the provider refused it), timed out (no answer in time: it may be sent).
 */
export type SendObserved =
  | { outcome: 'sent' | 'replayed' | 'failed' | 'timed_out' }
  | { outcome: 'rate_limited'; limit: 'recipient' | 'key' }

/** How a mail log insert that failed is tried again, after `delayMs` times the attempt. */
export type MailLogRetry = { attempts?: number; delayMs?: number }

export type SendMailDeps = {
  mailer: Mailer
  mailLog: MailLog<MailLogEntry>
  template: MailTemplate
  idempotency: IdempotencyStore
  counter: SendCounter
  rateLimits: RateLimits
  /** How long the client waits for a store, and for the provider (MAIL_TIMEOUT_MS). */
  timeoutMs: number
  /** How long a send is followed before the transport gives up (MAIL_GIVE_UP_MS). */
  giveUpMs: number
  retry?: MailLogRetry | undefined
  logError: (line: string) => void
  /** Told what became of each send, once its answer is decided (metrics). */
  onSend?: ((send: SendObserved) => void) | undefined
}

/** A `POST /sendmail` whose key and body were checked. */
export type SendMailRequest = {
  email: string
  name: string
  /** The caller's `x-apikey`: its keys, its rate limit and its records are its own. */
  apiKey: string
  idempotencyKey?: string | undefined
}

/**
 * `POST /sendmail` from its checked request to its answer: the `Idempotency-Key` (a repeat gets
 * the first answer and sends nothing, `held-key.ts`), the rate limits (429), the send (504 once
 * the client has waited `timeoutMs`: the send is followed to its end), then its outcome kept.
 * Taken by the provider (any 2xx, its body readable or not): logged under the API key's digest
 * (the record's owner) and the key completed. Refused: the count given back and the key freed.
 * Unknown (no answer before the transport gave up, or the connection lost before any answer):
 * the count and the key kept, so that a retry never sends it again.
 * A store that fails or hangs throws store-kit's `StoreUnavailableError` or `StoreFullError`,
 * which the error handler answers 503 or 507; nothing was sent then.
 */
export async function sendMail(
  deps: SendMailDeps,
  { email, name, apiKey, idempotencyKey }: SendMailRequest,
): Promise<SendMailOutcome> {
  const now = Date.now()
  const owner = await keyDigest(apiKey)

  // The Idempotency-Key is taken for this request, unless an earlier request holds it.
  const key = idempotencyKey === undefined ? undefined : await scopedKey(apiKey, idempotencyKey)
  if (key !== undefined) {
    const fingerprint = await fingerprintOf({ email, name })
    const record = { fingerprint, takenAt: now, expiresAt: now + idempotencyKeyTtlMs, owner }
    const held = await askStore(deps, 'store of idempotency keys', () =>
      deps.idempotency.take(key, record),
    )
    if (held) {
      const outcome = await heldOutcome(deps, { key, held, fingerprint, owner, now })
      if (outcome.status === 201 || outcome.status === 202) deps.onSend?.({ outcome: 'replayed' })
      return outcome
    }
  }
  const freeKey = async () => {
    if (key !== undefined) await deps.idempotency.release(key).catch(() => {})
  }

  // The send is counted before it goes out, so that simultaneous sends cannot all take the
  // last slot of a limit.
  const buckets = bucketsFor({ email, keyDigest: owner }, deps.rateLimits)
  const admission = await askStore(deps, 'send counter', () =>
    deps.counter.take(buckets, now),
  ).catch(async (error: unknown) => {
    await freeKey()
    throw error
  })
  if (!admission.admitted) {
    await freeKey()
    deps.onSend?.({ outcome: 'rate_limited', limit: limitOf(admission.bucket) })
    return tooMany(admission)
  }

  // The outcome is kept whether or not the client still waits for it.
  const notSent = async () => {
    // It reached no inbox: it does not count, and a retry with the key is a new request.
    await deps.counter.giveBack(buckets, now, Date.now()).catch(() => {})
    await freeKey()
  }
  // A send that outlived the client's wait was counted then (timed out), not again as it settles.
  const settle = async (
    result: SendResult,
    onSend: SendMailDeps['onSend'] | null = deps.onSend,
  ): Promise<SendMailOutcome> => {
    if (result.outcome === 'refused') {
      await notSent()
      onSend?.({ outcome: 'failed' })
      return failure(result.status, result.error)
    }
    if (result.outcome === 'unknown') {
      onSend?.({ outcome: 'timed_out' })
      // It may have reached an inbox: it counts, and the key stays taken until it expires.
      deps.logError(`sendmail: the outcome of a send is unknown: ${result.error}`)
      const error = key === undefined ? result.error : `${result.error}; ${outcomeUnknown}`
      return failure(result.status, error)
    }
    onSend?.({ outcome: 'sent' })
    const { output, ...answer } = sentAnswer(result)
    const recordId = await logSent(deps, { email, name, output }, owner)
    if (key !== undefined) {
      await deps.idempotency.complete(key, answer, now).catch((error: unknown) => {
        deps.logError(`sendmail: could not keep the answer of an Idempotency-Key: ${error}`)
      })
    }
    // The record's address, where its status is read; none when the log could not keep it.
    return recordId === undefined
      ? answer
      : { ...answer, headers: { location: `/maillog/${recordId}` } }
  }

  // The client waits for the provider alone: once it took the message in time, the client gets
  // its answer however long the mail log takes.
  const sending = deps.mailer.send(composeMail(deps.template, { email, name }), owner)
  let result: SendResult
  try {
    result = await withDeadline(deps.timeoutMs, () => sending, { what: 'the mail provider' })
  } catch (error) {
    if (!(error instanceof DeadlineExceededError)) {
      await notSent()
      throw error
    }
    deps.onSend?.({ outcome: 'timed_out' })
    const followUp = sending.then((late) => settle(late, null), notSent).then(() => {})
    return { ...failure(504, 'the mail provider did not answer in time'), followUp }
  }
  return settle(result)
}

/** Which limit a bucket counts for: a recipient's (`to:…`) or an API key's. */
const limitOf = (bucket: string) => (bucket.startsWith('to:') ? 'recipient' : 'key')

/** 429, naming the limit that refused and when a send fits in it again. */
function tooMany({
  bucket,
  retryAfterMs,
}: Extract<Admission, { admitted: false }>): SendMailOutcome {
  const seconds = Math.ceil(retryAfterMs / 1000)
  const what = limitOf(bucket) === 'recipient' ? 'this recipient' : 'this API key'
  return failure(429, `too many sends for ${what}; try again in ${seconds} s`, {
    'retry-after': String(seconds),
  })
}

/**
 * A store's answer within `timeoutMs`. A store that fails or hangs becomes store-kit's error with
 * the message the client gets (507 when it has no space, else 503 naming it); the cause is logged.
 */
async function askStore<T>(
  { timeoutMs, logError }: SendMailDeps,
  what: string,
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await withDeadline(timeoutMs, operation, { what: `the ${what}` })
  } catch (error) {
    logError(`sendmail: ${what}: ${error instanceof Error ? error.message : String(error)}`)
    if (error instanceof StoreFullError) {
      throw new StoreFullError('no space left to store the request', { cause: error })
    }
    throw new StoreUnavailableError(`the ${what} does not answer`, { cause: error })
  }
}

/**
 * Logs a mail that went out, under its owner, and resolves with the record's `_id`. A failed
 * insert is tried again; if it keeps failing, the whole record, its owner included, goes to the
 * error log to be recovered, and the client still gets its 201 (naming no record): the mail was
 * sent, and a client told otherwise would send it again.
 */
async function logSent(
  { mailLog, retry, logError }: SendMailDeps,
  entry: MailLogEntry,
  owner: string,
): Promise<string | undefined> {
  const { attempts = 3, delayMs = 100 } = retry ?? {}
  for (let attempt = 1; ; attempt++) {
    try {
      return (await mailLog.insert(entry, owner))._id
    } catch (error) {
      if (attempt >= attempts) {
        const reason = error instanceof Error ? error.message : String(error)
        const record = JSON.stringify({ ...entry, owner })
        logError(
          `maillog: insert failed ${attempts} times (${reason}); record to recover: ${record}`,
        )
        return undefined
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs * attempt))
    }
  }
}
