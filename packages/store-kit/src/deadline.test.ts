import { describe, expect, it, vi } from 'vitest'
import { DeadlineExceededError, withDeadline } from './deadline.js'

describe('withDeadline', () => {
  it('settles as the operation does, in time', async () => {
    await expect(withDeadline(1_000, async () => 'answer')).resolves.toBe('answer')
    await expect(withDeadline(1_000, async () => Promise.reject(new Error('no')))).rejects.toThrow(
      'no',
    )
  })

  it('rejects when the time runs out, aborting the signal it gave first', async () => {
    let signal: AbortSignal | undefined
    const waited = withDeadline(
      20,
      (given) => {
        signal = given
        return new Promise(() => {})
      },
      { what: 'the database' },
    )
    await expect(waited).rejects.toThrow(new DeadlineExceededError('the database', 20))
    expect(signal?.aborted).toBe(true)
    expect(signal?.reason).toBeInstanceOf(DeadlineExceededError)
  })

  it('rejects with the error the caller makes, and leaves no timer behind', async () => {
    const expired = (ms: number) => new RangeError(`late after ${ms}`)
    await expect(withDeadline(10, () => new Promise(() => {}), { expired })).rejects.toThrow(
      'late after 10',
    )
    vi.useFakeTimers()
    try {
      await withDeadline(60_000, async () => 1)
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })
})
