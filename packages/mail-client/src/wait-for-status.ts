import type { DeliveryStatus, MailLogRecord } from './api-types.js'

/** The statuses after which nothing more is expected of a mail. */
export const finalStatuses: readonly DeliveryStatus[] = [
  'delivered',
  'failed',
  'complained',
  'unsubscribed',
  'outbox',
]

/** How long to wait for a final status, and how often to ask. */
export type WaitOptions = {
  /** When to stop asking, in ms from the call (60000). */
  deadlineMs?: number | undefined
  /** Between two reads (2000). */
  everyMs?: number | undefined
  signal?: AbortSignal | undefined
}

/**
 * Reads a record with `read` until its status is final or the deadline has come, and resolves
 * with the last record read: its `status` tells which (`accepted` or `deferred` at the
 * deadline). `signal` stops the wait, rejecting with its reason.
 */
export async function waitForFinal(
  read: () => Promise<MailLogRecord>,
  { deadlineMs = 60_000, everyMs = 2_000, signal }: WaitOptions = {},
): Promise<MailLogRecord> {
  const deadline = Date.now() + deadlineMs
  for (;;) {
    const record = await read()
    const left = deadline - Date.now()
    if (finalStatuses.includes(record.status) || left <= 0) return record
    await pause(Math.min(everyMs, left), signal)
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(signal.reason)
    })
  })
}
