/** One message, as every transport receives it. */
export type OutgoingMail = { from: string; to: string; subject: string; text: string }

/** The outcome of a send, in the terms the HTTP response needs. */
export type SendResult =
  | {
      outcome: 'sent'
      /** The provider's body, byte for byte, to pass on to the client. */
      body: string
      /** The same body parsed, for the mail log. */
      output: Record<string, unknown>
    }
  /**
   * The provider answered 2xx, so it took the message, but its answer could not be read (not a
   * JSON object, or cut while it came): sent all the same. `status` is the provider's.
   */
  | { outcome: 'sent-unreadable'; status: number; reason: string }
  /** The provider refused it or could not be reached (no connection was made): nothing was sent. */
  | { outcome: 'refused'; status: number; error: string }
  /**
   * The message may have been sent: no answer before the transport gave up (504), or the
   * connection lost before any answer, once the request may have gone out (502).
   */
  | { outcome: 'unknown'; status: 502 | 504; error: string }

/**
 * Sends one message. What the provider answers, or that it could not be reached, is a
 * `SendResult`; a transport that keeps the message itself (the outbox) rejects with the kit's
 * store errors when it cannot, as every store does.
 */
export interface Mailer {
  /**
   * @param owner the digest of the API key that asked (`keyDigest`): a transport that keeps the
   * message (the outbox) files it under it; a provider is told nothing of it
   */
  send(mail: OutgoingMail, owner: string): Promise<SendResult>
}

/** The fixed parts of every message; `{name}` in `text` becomes the recipient's name. */
export type MailTemplate = { from: string; subject: string; text: string }

/** Fills the template for one recipient. */
export function composeMail(
  template: MailTemplate,
  recipient: { email: string; name: string },
): OutgoingMail {
  return {
    from: template.from,
    to: recipient.email,
    subject: template.subject,
    // A function replacement: a name like "$&" must go in as written, not as a pattern.
    text: template.text.replaceAll('{name}', () => recipient.name),
  }
}
