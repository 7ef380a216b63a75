import type { Admission, Bucket, SendCounter } from '../../ports/send-counter.js'
import type { MailState } from './mail-state.js'

/**
 * Sends counted in the mail state object (`mail-state-object.ts`), one TAT a bucket, shared by
 * every isolate: a send is counted in all its buckets or in none in one transaction of the
 * object, so simultaneous sends on any isolates never share a bucket's last slot. The object
 * forgets empty buckets as sends come.
 * @example new DurableSendCounter(new MailState(env.MAIL_STATE))
 */
export class DurableSendCounter implements SendCounter {
  readonly #state: MailState

  constructor(state: MailState) {
    this.#state = state
  }

  take(buckets: readonly Bucket[], now: number): Promise<Admission> {
    return this.#state.call<Admission>((object) => object.takeSend([...buckets], now))
  }

  giveBack(buckets: readonly Bucket[], takenAt: number, now: number): Promise<void> {
    return this.#state.call((object) => object.giveBackSend([...buckets], takenAt, now))
  }

  ping(): Promise<void> {
    return this.#state.call((object) => object.ping())
  }

  prune(now: number): Promise<number> {
    return this.#state.call((object) => object.pruneSends(now))
  }
}
