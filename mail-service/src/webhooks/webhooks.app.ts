import { ApiApp } from '@movies-and-mail/http-kit/routes'
import { StoreUnavailableError } from '@movies-and-mail/store-kit'
import type { EventName, MailEvents } from '../ports/mail-events.js'
import { mailEventOf } from './mailgun-event.js'
import { mailgunSignatureCheck, signatureWindowMs } from './mailgun-signature.js'
import { mailgunWebhookRoute } from './webhooks.routes.js'

export type WebhooksDeps = {
  /** Where events are kept; with `signingKey`, or the route answers 404. */
  events?: MailEvents | undefined
  /** MAILGUN_WEBHOOK_SIGNING_KEY. */
  signingKey?: string | undefined
  logError?: (line: string) => void
  /** The clock the timestamp window is read on. */
  now?: () => number
  /** Told the kind of each event filed (metrics). */
  onDeliveryEvent?: ((kind: EventName) => void) | undefined
}

/**
 * `POST /webhooks/mailgun`: a signed Mailgun event, checked (signature, timestamp window, token
 * taken once), then filed with its send. Never open: without a signing key it answers 404.
 */
export function webhooksApp({
  events,
  signingKey,
  logError = console.error,
  now = Date.now,
  onDeliveryEvent,
}: WebhooksDeps) {
  const check = signingKey ? mailgunSignatureCheck(signingKey) : undefined
  return new ApiApp().openapi(mailgunWebhookRoute, async (c) => {
    if (!check || !events) {
      return c.json({ error: 'mail events are off: MAILGUN_WEBHOOK_SIGNING_KEY is not set' }, 404)
    }
    const { signature, 'event-data': data } = c.req.valid('json')
    const verdict = await check(signature, now())
    if (verdict === 'wrong signature') {
      return c.json({ error: "the signature is not Mailgun's" }, 401)
    }
    if (verdict === 'stale timestamp') {
      return c.json({ error: 'the signature timestamp is more than 15 minutes from now' }, 406)
    }
    try {
      // The token stays taken as long as its timestamp could pass the window.
      const expiresAt = Number(signature.timestamp) * 1000 + signatureWindowMs
      const holder = await events.takeToken(signature.token, data.id, expiresAt)
      if (holder !== data.id) {
        return c.json({ error: 'this signature token was used by another event' }, 409)
      }
      const event = mailEventOf(data)
      if (!event) return c.json({ filed: false }, 200)
      const messageId = data.message.headers['message-id'].replace(/^<|>$/g, '')
      const filed = await events.file(messageId, event)
      if (filed) onDeliveryEvent?.(event.event)
      return c.json({ filed }, 200)
    } catch (error) {
      logError(`webhooks: ${error instanceof Error ? error.message : String(error)}`)
      throw new StoreUnavailableError('the store of mail events does not answer', { cause: error })
    }
  })
}
