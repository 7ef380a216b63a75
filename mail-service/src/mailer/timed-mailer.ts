import type { Mailer, SendResult } from './mailer.js'

/** How a provider call ended: the transport's outcome, or `error` when it threw. */
export type ProviderOutcome = SendResult['outcome'] | 'error'

/** Takes how long one call to the transport took, in seconds, and how it ended. */
export type ProviderTiming = (outcome: ProviderOutcome, seconds: number) => void

/**
 * `mailer` with each call's duration and outcome handed to `timing` once it settles, late
 * answers to sends the client stopped waiting for included. The caller gets the transport's own
 * promise: the timing hangs off it.
 * @example const mailer = timedMailer(mailgun, (outcome, seconds) => histogram.observe(...))
 */
export function timedMailer(mailer: Mailer, timing: ProviderTiming): Mailer {
  return {
    send(mail, owner) {
      const startedAt = performance.now()
      const sending = mailer.send(mail, owner)
      sending.then(
        (result) => timing(result.outcome, (performance.now() - startedAt) / 1000),
        () => timing('error', (performance.now() - startedAt) / 1000),
      )
      return sending
    },
  }
}
