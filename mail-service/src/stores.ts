import type { Settings } from './env.js'
import { DetaMailLog } from './mail-log/deta-mail-log.js'
import type { MailLog, MailLogEntry } from './mail-log/mail-log.js'
import type { Mailer } from './mailer/mailer.js'
import { MailgunMailer } from './mailer/mailgun-mailer.js'
import { OutboxMailer, type OutboxMessage } from './mailer/outbox-mailer.js'

/** Opens one named log; each entry decides where logs live when no Deta Base is set. */
export type OpenLog = <T extends object>(name: 'maillog' | 'outbox') => Promise<MailLog<T>>

/**
 * Wires the adapters the settings ask for: the logs in a Deta Base when DETA_PROJECT_KEY is
 * set (else `openLocal`), and Mailgun or the outbox as the transport. Shared by both entries.
 */
export async function openAdapters(
  settings: Settings,
  openLocal: OpenLog,
  logError: (line: string) => void = console.error,
): Promise<{ mailer: Mailer; mailLog: MailLog<MailLogEntry>; outbox?: OutboxMailer }> {
  const { deta, transport, mail } = settings
  const openLog: OpenLog = deta
    ? async (baseName) => new DetaMailLog({ ...deta, baseName })
    : openLocal
  const mailLog = await openLog<MailLogEntry>('maillog')
  if (transport.kind === 'mailgun') {
    return {
      mailLog,
      mailer: new MailgunMailer({ ...transport, timeoutMs: mail.timeoutMs, logError }),
    }
  }
  const outbox = new OutboxMailer(await openLog<OutboxMessage>('outbox'))
  return { mailLog, mailer: outbox, outbox }
}

/** The lines an entry prints at start, saying plainly where mail goes and where logs live. */
export function describeSetup(settings: Settings, localLogs: string): string[] {
  const { transport, deta } = settings
  const logs = deta ? `Deta Base at ${deta.host} (bases maillog, outbox)` : localLogs
  if (transport.kind === 'mailgun') {
    return [
      `transport: Mailgun at ${transport.baseUrl}, domain ${transport.domain}`,
      `logs: ${logs}`,
    ]
  }
  return [
    '*** OUTBOX MODE: mail is NOT delivered. Messages are only kept; list them with GET /outbox.',
    '*** To send for real, set MAIL_APIKEY and MAIL_DOMAIN (Mailgun).',
    `logs: ${logs}`,
  ]
}
