import { OpenAPIHono, type RouteHandler } from '@hono/zod-openapi'
import { StoreFullError, validationHook } from '@movies-and-mail/http-kit'
import type { Context, Env, Handler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  fingerprintOf,
  type IdempotencyStore,
  idempotencyKeyTtlMs,
  scopedKey,
} from '../idempotency/idempotency-store.js'
import type { MailLog } from '../mail-log/mail-log.js'
import { composeMail, type Mailer, type MailTemplate, type SendResult } from '../mailer/mailer.js'
import { bucketsFor, type RateLimits } from '../rate-limits/buckets.js'
import type { Bucket, SendCounter } from '../rate-limits/send-counter.js'
import type { Background } from './background.js'
import { type RecordSendOptions, recordSend } from './record-send.js'
import { sendMailRoute } from './sendmail.routes.js'
import type { SendMailBody } from './sendmail.schema.js'

export type SendMailDeps = {
  mailer: Mailer
  mailLog: MailLog
  template: MailTemplate
  idempotency: IdempotencyStore
  counter: SendCounter
  rateLimits: RateLimits
  /** How long the client waits for the provider before a 504; the send goes on after it. */
  timeoutMs: number
  background: Background
  retry?: Omit<RecordSendOptions, 'logError'>
  logError?: (line: string) => void
}

const timedOut = Symbol('timed out')

/** Rejects when `promise` has not settled within `ms`: a store that hangs must not hang requests. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the ${what} within ${ms} ms`)), ms)
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}

/**
 * `POST /sendmail`: API key and body (declared in the route), then the `Idempotency-Key`
 * (a repeat gets the first answer again, and sends nothing), the rate limits (429), the send,
 * the mail log, the answer. The provider's success body is passed on byte for byte. A send
 * that outlives `timeoutMs` answers 504 but is followed to its end (`background`): its outcome
 * goes to the mail log and to the key, so a retry after a late delivery gets the 201.
 */
export function sendMailApp(deps: SendMailDeps) {
  const { mailer, mailLog, template, idempotency, counter, rateLimits, timeoutMs } = deps
  const logError = deps.logError ?? console.error
  const storeFailure = (what: string, error: unknown, c: Context) => {
    logError(`sendmail: ${what}: ${error instanceof Error ? error.message : String(error)}`)
    if (error instanceof StoreFullError)
      return c.json({ error: 'no space left to store the request' }, 507)
    return c.json({ error: `the ${what} does not answer` }, 503)
  }

  const send: Handler<Env, '/sendmail', Validated> = async (c) => {
    const { email, name } = c.req.valid('json')
    const idempotencyKey = c.req.valid('header')['idempotency-key']
    const apiKey = c.req.header('x-apikey') ?? ''
    const now = Date.now()

    let taken: string | undefined
    if (idempotencyKey !== undefined) {
      const key = await scopedKey(apiKey, idempotencyKey)
      const fingerprint = await fingerprintOf({ email, name })
      let held: Awaited<ReturnType<IdempotencyStore['take']>>
      try {
        const record = { fingerprint, takenAt: now, expiresAt: now + idempotencyKeyTtlMs }
        held = await within(idempotency.take(key, record), timeoutMs, 'store of idempotency keys')
      } catch (error) {
        return storeFailure('store of idempotency keys', error, c)
      }
      if (held?.fingerprint !== undefined && held.fingerprint !== fingerprint) {
        return c.json({ error: 'this Idempotency-Key was used with another request body' }, 422)
      }
      if (held && !held.answer) {
        return c.json({ error: 'a request with this Idempotency-Key is in progress' }, 409)
      }
      if (held?.answer) {
        const { status, body } = held.answer
        return c.body(body, status as ContentfulStatusCode, {
          'content-type': 'application/json',
          'idempotent-replayed': 'true',
        })
      }
      taken = key
    }

    let admission: Awaited<ReturnType<SendCounter['take']>>
    let buckets: Bucket[] = []
    try {
      buckets = await bucketsFor({ email, apiKey }, rateLimits)
      admission = await within(counter.take(buckets, now), timeoutMs, 'send counter')
    } catch (error) {
      if (taken) await idempotency.release(taken).catch(() => {})
      return storeFailure('send counter', error, c)
    }
    if (!admission.admitted) {
      if (taken) await idempotency.release(taken).catch(() => {})
      const seconds = Math.ceil(admission.retryAfterMs / 1000)
      const what = admission.bucket.startsWith('to:') ? 'this recipient' : 'this API key'
      return c.json({ error: `too many sends for ${what}; try again in ${seconds} s` }, 429, {
        'retry-after': String(seconds),
      })
    }

    // The outcome is kept whether or not the client is still waiting for it.
    const settle = async (result: SendResult): Promise<SendResult> => {
      if (result.ok) {
        await recordSend(
          mailLog,
          { email, name, output: result.output },
          { ...deps.retry, logError },
        )
        if (taken) {
          await idempotency.complete(taken, { status: 201, body: result.body }).catch((error) => {
            logError(`sendmail: could not keep the answer of an Idempotency-Key: ${error}`)
          })
        }
      } else {
        // Not accepted, so it reached no inbox: it does not count, and the key is free again.
        await counter.giveBack(buckets, now).catch(() => {})
        if (taken) await idempotency.release(taken).catch(() => {})
      }
      return result
    }
    const sending = mailer.send(composeMail(template, { email, name }))
    let timer: ReturnType<typeof setTimeout> | undefined
    const waited = new Promise<typeof timedOut>((resolve) => {
      timer = setTimeout(() => resolve(timedOut), timeoutMs)
    })
    // Only the provider's answer is raced: once it is in, the client waits for the log.
    const first = await Promise.race([sending, waited])
    clearTimeout(timer)
    if (first === timedOut) {
      deps.background.keep(sending.then(settle), c)
      return c.json({ error: 'the mail provider did not answer in time' }, 504)
    }
    const result = await settle(first)
    if (!result.ok) return c.json({ error: result.error }, result.status as ContentfulStatusCode)
    return c.body(result.body, 201, { 'content-type': 'application/json' })
  }
  // The 201 body is the provider's own bytes and a failure carries the provider's own status;
  // the typed responses cannot say that, the document does (201 and `default`).
  return new OpenAPIHono({ defaultHook: validationHook }).openapi(
    sendMailRoute,
    send as unknown as RouteHandler<typeof sendMailRoute>,
  )
}

type Validated = {
  in: { json: SendMailBody; header: { 'idempotency-key'?: string } }
  out: { json: SendMailBody; header: { 'idempotency-key'?: string } }
}
