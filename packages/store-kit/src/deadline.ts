/** A wait that ran out: what was waited for did not settle in time. */
export class DeadlineExceededError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`no answer from ${what} within ${ms} ms`)
    this.name = 'DeadlineExceededError'
  }
}

export type DeadlineOptions = {
  /** What is waited for, for the error's message: `the database`, `the send counter`. */
  what?: string
  /** The abort whose signal `operation` gets; a cursor's batches share one. */
  abort?: AbortController
  /** The error the wait rejects with when it runs out; `DeadlineExceededError` by default. */
  expired?: (ms: number) => Error
}

/**
 * Settles as `operation` does, or rejects after `ms`, aborting the signal `operation` was given
 * first: where it listens (a driver's read, a fetch), it then stops waiting for an answer that
 * will not come. The one bounded wait of both micros: a store that hangs must not hang a request,
 * a start, or a stop.
 * @example await withDeadline(5_000, (signal) => fetch(url, { signal }), { what: 'the provider' })
 */
export async function withDeadline<T>(
  ms: number,
  operation: (signal: AbortSignal) => Promise<T>,
  {
    what = 'the operation',
    abort = new AbortController(),
    expired = (limit) => new DeadlineExceededError(what, limit),
  }: DeadlineOptions = {},
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const ranOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = expired(ms)
      abort.abort(error)
      reject(error)
    }, ms)
  })
  try {
    return await Promise.race([operation(abort.signal), ranOut])
  } finally {
    clearTimeout(timer)
  }
}
