import type { MailLog, MailLogEntry } from '../mail-log/mail-log.js'

export type RecordSendOptions = {
  attempts?: number
  delayMs?: number
  logError?: (line: string) => void
}

/**
 * Logs a send that has already gone out. A failed insert is retried; if it keeps failing, the
 * whole record goes to the error log so it can be recovered, and the caller still answers 201:
 * the mail was sent, and a client told otherwise would send it again.
 * @returns whether the record reached the mail log
 */
export async function recordSend(
  mailLog: MailLog<MailLogEntry>,
  entry: MailLogEntry,
  { attempts = 3, delayMs = 100, logError = console.error }: RecordSendOptions = {},
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await mailLog.insert(entry)
      return true
    } catch (error) {
      if (attempt >= attempts) {
        const reason = error instanceof Error ? error.message : String(error)
        logError(
          `maillog: insert failed ${attempts} times (${reason}); record to recover: ` +
            JSON.stringify(entry),
        )
        return false
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs * attempt))
    }
  }
}
