import { redactText, secretsOfUrl } from '@movies-and-mail/http-kit/redact'
import { DeadlineExceededError, withDeadline } from '@movies-and-mail/store-kit'
import type { Mailer, OutgoingMail, SendResult } from './mailer.js'
import { reasonPhrase } from './reason-phrases.js'

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
    const request = async (signal: AbortSignal) => {
      const response = await fetch(this.#url, {
        method: 'POST',
        body: form,
        headers: { authorization: this.#authorization, accept: 'application/json' },
        redirect: 'manual',
        signal,
      })
      return this.#read(response)
    }
    try {
      // The answer's body is read within the same wait: a provider may stall halfway through.
      return await withDeadline(this.#timeoutMs, request, { what: 'the mail provider' })
    } catch (error) {
      if (error instanceof DeadlineExceededError) {
        this.#logError(`mailgun: no answer within ${this.#timeoutMs} ms`)
        return { ok: false, status: 504, error: 'the mail provider did not answer in time' }
      }
      this.#logError(`mailgun: request failed: ${describe(error)}`)
      return { ok: false, status: 502, error: 'the mail provider could not be reached' }
    }
  }

  async #read(response: Response): Promise<SendResult> {
    const { status } = response
    if (status > 201) {
      await response.body?.cancel()
      if (status < 400) {
        this.#logError(`mailgun: unexpected status ${status}`)
        return { ok: false, status: 502, error: 'the mail provider gave an unexpected answer' }
      }
      return { ok: false, status, error: response.statusText || reasonPhrase(status) }
    }
    const body = await response.text()
    const output = parseObject(body)
    if (!output) {
      this.#logError(`mailgun: status ${status} with a body that is not a JSON object`)
      return { ok: false, status: 502, error: 'the mail provider gave an unreadable answer' }
    }
    return { ok: true, body, output }
  }
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
