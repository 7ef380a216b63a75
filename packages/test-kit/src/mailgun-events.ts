import { createHmac, randomBytes } from 'node:crypto'

/** The signing key the tests' services are given, as Mailgun shows one. */
export const mailgunSigningKey = 'key-webhook-signing-3b8e0c7d1f2a4e6b'

/** What a Mailgun event says of itself; Mailgun adds fields at will, so any more may follow. */
export type MailgunEventData = {
  event: string
  id: string
  timestamp: number
  message: {
    headers: { 'message-id': string; [header: string]: unknown }
    [field: string]: unknown
  }
  [field: string]: unknown
}

/** The body of a webhook call as Mailgun posts it: the signature beside the event. */
export type MailgunWebhookBody = {
  signature: { timestamp: string; token: string; signature: string }
  'event-data': MailgunEventData
}

/**
 * A webhook body signed as Mailgun's "Securing webhooks" says: the hex HMAC-SHA256 of
 * `timestamp` followed by `token` (50 random characters), keyed with the domain's signing key.
 * `timestamp` is in seconds, now unless given.
 * @example signedMailgunEvent(mailgunSigningKey, deliveredEvent('20260101.1@mg.example.com'))
 */
export function signedMailgunEvent(
  signingKey: string,
  eventData: MailgunEventData,
  { timestamp = String(Math.floor(Date.now() / 1000)), token = mailgunToken() } = {},
): MailgunWebhookBody {
  const signature = createHmac('sha256', signingKey)
    .update(timestamp + token)
    .digest('hex')
  return { signature: { timestamp, token, signature }, 'event-data': eventData }
}

/** A token as Mailgun makes them: 50 hex characters, never the same twice. */
export const mailgunToken = () => randomBytes(25).toString('hex')

let eventCount = 0

/**
 * An event of a message as Mailgun's "Webhook payloads" shows them (with a few of the fields
 * every event carries), for the message id given (Mailgun's, without angle brackets).
 * @example mailgunEvent('delivered', '20260101.1@mg.example.com', { at: 1770146431.65 })
 */
export function mailgunEvent(
  event: 'accepted' | 'delivered' | 'opened' | 'clicked' | 'unsubscribed' | 'complained',
  messageId: string,
  { at = Date.now() / 1000, id = `ev${++eventCount}-${randomBytes(8).toString('hex')}` } = {},
): MailgunEventData {
  return {
    event,
    id,
    timestamp: at,
    'log-level': 'info',
    recipient: 'ada@example.com',
    'recipient-domain': 'example.com',
    account: { id: '1234567890303a4bd1f33898' },
    domain: { name: 'mg.example.com' },
    flags: { 'is-authenticated': true, 'is-test-mode': false },
    tags: [],
    'user-variables': {},
    envelope: { sender: 'no-reply@mg.example.com', targets: 'ada@example.com', transport: 'smtp' },
    message: {
      headers: {
        'message-id': messageId,
        from: 'Movies <no-reply@mg.example.com>',
        to: 'ada@example.com',
        subject: 'Hello from the movies app',
      },
      size: 341,
    },
  }
}

/**
 * A `failed` event: `temporary` (Mailgun tries again) or `permanent` (a bounce), with its
 * reason and the receiving server's `delivery-status`.
 */
export function mailgunFailure(
  severity: 'temporary' | 'permanent',
  messageId: string,
  options: { at?: number; id?: string } = {},
): MailgunEventData {
  const base = mailgunEvent('delivered', messageId, options)
  return {
    ...base,
    event: 'failed',
    'log-level': severity === 'permanent' ? 'error' : 'warn',
    severity,
    reason: severity === 'permanent' ? 'bounce' : 'generic',
    'delivery-status': {
      code: severity === 'permanent' ? 550 : 452,
      'attempt-no': 1,
      description: severity === 'permanent' ? 'No such user' : 'Mailbox temporarily full',
      message:
        severity === 'permanent'
          ? '5.1.1 The email account that you tried to reach does not exist.'
          : '4.2.2 The email account that you tried to reach is over quota.',
      'mx-host': 'mx.example.com',
      tls: true,
      utf8: true,
    },
  }
}
