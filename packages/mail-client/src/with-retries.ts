import { MailApiError } from './mail-api-error.js'
import { backoffMs } from './retry-delay.js'

/** How a call is retried; every field may be left out. */
export type RetryOptions = {
  /** Tries at most, the first included (default 5); `1` for no retry. */
  maxAttempts?: number | undefined
  /**
   * The most the waits between tries may add up to, `Retry-After`s included (default 30000
   * ms). A retry whose wait would go past it is not made: the call rejects with the last error.
   */
  maxRetryWaitMs?: number | undefined
  /** How long a try may go unanswered before it counts as lost, and is retried (30000 ms). */
  attemptTimeoutMs?: number | undefined
}

const retryDefaults = { maxAttempts: 5, maxRetryWaitMs: 30_000, attemptTimeoutMs: 30_000 }

/**
 * The wait before retrying what failed with `error` (a `MailApiError` for an error answer,
 * anything else for no answer), or undefined when a retry cannot help. A retry is made after no
 * answer, a 5xx, a 409 (the same key's first request is still in progress) and a 429: after
 * the `Retry-After` the service named, or else a backoff.
 */
function retryWaitMs(error: unknown, retry: number): number | undefined {
  if (!(error instanceof MailApiError)) return backoffMs(retry)
  const { status } = error
  if (status !== 409 && status !== 429 && status < 500) return undefined
  return error.retryAfterMs ?? backoffMs(retry)
}

/**
 * `attempt` tried until it resolves, as `options` allow (each over the ones before it, the
 * defaults first; see `retryWaitMs`). Each try gets a signal of its own, aborted when the
 * caller's `signal` is or when the try outlives `attemptTimeoutMs`. An aborted `signal` ends it
 * at once, during a try or a wait, with its reason; when no retry is left, it rejects with the
 * last try's error.
 */
export async function withRetries<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  signal: AbortSignal | undefined,
  ...options: RetryOptions[]
): Promise<T> {
  const { maxAttempts, maxRetryWaitMs, attemptTimeoutMs } = Object.assign(
    { ...retryDefaults },
    ...options.map(defined),
  ) as typeof retryDefaults
  let waited = 0
  for (let tries = 1; ; tries++) {
    signal?.throwIfAborted()
    try {
      return await timed(attempt, attemptTimeoutMs, signal)
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      const wait = tries < maxAttempts ? retryWaitMs(error, tries) : undefined
      if (wait === undefined || waited + wait > maxRetryWaitMs) throw error
      waited += wait
      await sleep(wait, signal)
    }
  }
}

/** The options given, those given as `undefined` left out. */
function defined(options: RetryOptions): RetryOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined))
}

/** One try, rejected with its signal's reason once that is aborted, whether the fetch is or not. */
async function timed<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<T> {
  const controller = new AbortController()
  const abort = () => controller.abort(signal?.reason)
  signal?.addEventListener('abort', abort, { once: true })
  const timer = setTimeout(() => {
    controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'))
  }, timeoutMs)
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), {
      once: true,
    })
  })
  try {
    return await Promise.race([attempt(controller.signal), aborted])
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', abort)
  }
}

/** Resolves after `ms`, or rejects with the signal's reason once it is aborted. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const wake = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', wake)
      resolve()
    }, ms)
    signal?.addEventListener('abort', wake, { once: true })
  })
}
