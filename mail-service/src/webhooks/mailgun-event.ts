import { documented, named } from '@movies-and-mail/http-kit/routes'
import * as z from 'zod/mini'
import { type EventName, eventNames, type MailEvent } from '../ports/mail-events.js'

const bounded = (max: number) => z.string().check(z.minLength(1), z.maxLength(max))

/**
 * The parts of Mailgun's webhook body (its "Webhook payloads") the service reads; every other
 * field, Mailgun's account fields among them, is let through unread and never kept, since
 * Mailgun adds fields at any time.
 */
export const mailgunWebhookSchema = named(
  'MailgunWebhook',
  z.object({
    signature: z.object({
      timestamp: documented(bounded(20), { description: 'Seconds since the epoch, as text' }),
      token: documented(bounded(200), { description: '50 random characters, used once' }),
      signature: documented(bounded(128), {
        description: 'Hex HMAC-SHA256 of `timestamp` then `token`, keyed with the signing key',
      }),
    }),
    'event-data': z.looseObject({
      event: bounded(64),
      id: bounded(200),
      timestamp: z.number(),
      severity: z.optional(z.string()),
      reason: z.optional(z.string()),
      'delivery-status': z.optional(
        z.looseObject({
          code: z.optional(z.union([z.number(), z.string()])),
          description: z.optional(z.string()),
          message: z.optional(z.string()),
        }),
      ),
      message: z.looseObject({ headers: z.looseObject({ 'message-id': bounded(998) }) }),
    }),
  }),
  {
    example: {
      signature: {
        timestamp: '1770146431',
        token: 'a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0',
        signature: 'd2271d12299f6592d9d44cd9d250f0704e4674c30d79d07c47a66f95ce71cf55',
      },
      'event-data': {
        event: 'delivered',
        id: 'MXcc2gEpS-eN8HfkOnmK2w',
        timestamp: 1770146431.6585283,
        message: { headers: { 'message-id': '20260101120000.5f3c9a1b2d4e6f70@mg.example.com' } },
      },
    },
  },
)

export type MailgunWebhook = z.infer<typeof mailgunWebhookSchema>

const limit = (text: string | undefined, max: number) =>
  text === undefined ? undefined : text.slice(0, max)

/**
 * What the service keeps of a Mailgun event: its id, name and time, and for a failure its
 * severity, reason, code and description (the server's `message` when it gives no description);
 * `undefined` for an event it does not follow (one Mailgun adds later, say).
 */
export function mailEventOf(data: MailgunWebhook['event-data']): MailEvent | undefined {
  if (!(eventNames as readonly string[]).includes(data.event)) return undefined
  const at = new Date(Math.round(data.timestamp * 1000))
  if (Number.isNaN(at.getTime())) return undefined
  const event: MailEvent = { id: data.id, event: data.event as EventName, at: at.toISOString() }
  if (data.event !== 'failed') return event
  const status = data['delivery-status']
  const code = Number(status?.code)
  return {
    ...event,
    severity: data.severity === 'temporary' ? 'temporary' : 'permanent',
    ...(data.reason !== undefined && { reason: limit(data.reason, 200) }),
    ...(Number.isInteger(code) && { code }),
    ...((status?.description || status?.message) && {
      description: limit(status.description || status.message, 500),
    }),
  }
}
