import { redactText, secretsOfUrl } from '@movies-and-mail/http-kit/redact'
import { DeadlineExceededError, withDeadline } from '@movies-and-mail/store-kit'
import type { Mailer, OutgoingMail, SendResult } from './mailer.js'
import { reasonPhrase } from './reason-phrases.js'
import { surelyUnsent } from './unsent-errors.js'

export type MailgunOptions = {
  /** `https://api.mailgun.net`, `https://api.eu.mailgun.net`, or a stand-in's address. */
  baseUrl: string
  domain: string
  apiKey: string
  timeoutMs: number
  /** Where failures are explained; never receives the key or a password of `baseUrl`. */
  logError?: (line: string) => void
}

/**
 * Sends through Mailgun's REST API (`POST {baseUrl}/v3/{domain}/messages`, multipart form,
 * Basic auth `api:<key>`) with `fetch` and `FormData`, so it runs on Node and on Workers alike.
 */
export class MailgunMailer implements Mailer {
  #url: string
  #authorization: string
  #timeoutMs: number
  #logError: (line: string) => void

  constructor({ baseUrl, domain, apiKey, timeoutMs, logError = console.error }: MailgunOptions) {
    this.#url = `${baseUrl}/v3/${encodeURIComponent(domain)}/messages`
    this.#authorization = `Basic ${btoa(`api:${apiKey}`)}`
    this.#timeoutMs = timeoutMs
    // fetch's own messages quote the URL, and a URL may carry a password.
    const secrets = [apiKey, this.#authorization, ...secretsOfUrl(baseUrl)]
    this.#logError = (line) => logError(redactText(line, secrets))
  }

  async send(mail: OutgoingMail): Promise<SendResult> {
    const form = new FormData()
    form.append('from', mail.from)
    form.append('to', mail.to)
    form.append('subject', mail.subject)
    form.append('text', mail.text)
    /** The status of a 2xx once its headers came: from then on the message was taken. */
    let taken: number | undefined
    const request = async (signal: AbortSignal) => {
      const response = await fetch(this.#url, {
        method: 'POST',
        body: form,
        headers: { authorization: this.#authorization, accept: 'application/json' },
        redirect: 'manual',
        signal,
      })
      if (response.status >= 200 && response.status < 300) taken = response.status
      return this.#read(response, signal)
    }
    try {
      // The response's body is read within the same wait: a provider may stall halfway through.
      return await withDeadline(this.#timeoutMs, request, { what: 'the mail provider' })
    } catch (error) {
      if (taken !== undefined) return this.#unreadable(taken, 'its answer stalled', describe(error))
      if (error instanceof DeadlineExceededError) {
        this.#logError(`mailgun: no answer within ${this.#timeoutMs} ms`)
        return {
          outcome: 'unknown',
          status: 504,
          error: 'the mail provider did not answer in time',
        }
      }
      this.#logError(`mailgun: request failed: ${describe(error)}`)
      if (surelyUnsent(error)) {
        return { outcome: 'refused', status: 502, error: 'the mail provider could not be reached' }
      }
      // Reset or closed once the request may have gone out: Mailgun may have taken it.
      return { outcome: 'unknown', status: 502, error: connectionLost }
    }
  }

  async #read(response: Response, signal: AbortSignal): Promise<SendResult> {
    const { status } = response
    if (status < 200 || status >= 300) {
      if (status < 400) {
        await response.body?.cancel()
        this.#logError(`mailgun: unexpected status ${status}`)
        return {
          outcome: 'refused',
          status: 502,
          error: 'the mail provider gave an unexpected answer',
        }
      }
      // The caller gets the status text, as the specification says; the operator, Mailgun's
      // reason ("'to' parameter is not a valid address"), which is all that says what to fix.
      this.#logError(`mailgun: refused with ${status}: ${await refusalReason(response)}`)
      return { outcome: 'refused', status, error: response.statusText || reasonPhrase(status) }
    }
    let body: string
    try {
      body = await response.text()
    } catch (error) {
      // Given up on: `send` says so, once.
      if (signal.aborted) throw error
      return this.#unreadable(status, 'its answer was cut off', describe(error))
    }
    const output = parseObject(body)
    if (!output) {
      const what = body === '' ? 'its answer is empty' : 'its answer is not a JSON object'
      return this.#unreadable(status, what)
    }
    return { outcome: 'sent', body, output }
  }

  /** A 2xx whose body could not be read: Mailgun took the message all the same. */
  #unreadable(status: number, reason: string, detail?: string): SendResult {
    const why = detail === undefined ? reason : `${reason} (${detail})`
    this.#logError(`mailgun: status ${status}, the message was taken, but ${why}`)
    return { outcome: 'sent-unreadable', status, reason }
  }
}

const connectionLost = 'the connection to the mail provider was lost before it answered'

/** The longest reason a log line quotes of a refusal, and the most of its body read for it. */
const maxReasonLength = 300
const maxReasonBytes = 4096

/**
 * Why Mailgun refused: its JSON body's `message`, or the start of its text, on one line and
 * bounded, as is what is read of the body: the log must not grow with what a provider sends.
 */
async function refusalReason(response: Response): Promise<string> {
  const text = await leadingText(response, maxReasonBytes)
  const message = parseObject(text)?.message
  const reason = (typeof message === 'string' ? message : text).replace(/[\s\p{Cc}]+/gu, ' ').trim()
  if (reason === '') return '(no reason given)'
  return reason.length > maxReasonLength ? `${reason.slice(0, maxReasonLength)}…` : reason
}

/** About the first `limit` bytes of a body as text; the rest is not read. */
async function leadingText(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const decoder = new TextDecoder()
  let text = ''
  let size = 0
  try {
    while (size < limit) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    // A body cut short still says what it said so far.
  } finally {
    reader.cancel().catch(() => {})
  }
  return text
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

function describe(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined
  if (cause?.code) return cause.code
  return error instanceof Error ? error.message : String(error)
}
