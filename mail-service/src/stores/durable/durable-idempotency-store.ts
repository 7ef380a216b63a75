import type {
  IdempotencyRecord,
  IdempotencyStore,
  KeptResponse,
  UnansweredKey,
} from '../../ports/idempotency-store.js'
import type { MailState } from './mail-state.js'

/**
 * Keys in the mail state object (`mail-state-object.ts`), shared by every isolate: taking a key
 * is one check-and-set in the object, so of two requests with one key, on any isolates, one
 * takes it and the other gets its record. A key left without an answer (its isolate ended
 * mid-request) stays taken until it expires; the object forgets expired keys as new ones come.
 * @example new DurableIdempotencyStore(new MailState(env.MAIL_STATE))
 */
export class DurableIdempotencyStore implements IdempotencyStore {
  readonly #state: MailState

  constructor(state: MailState) {
    this.#state = state
  }

  take(key: string, record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    return this.#state.call((object) => object.takeKey(key, record))
  }

  complete(key: string, answer: KeptResponse, takenAt: number): Promise<void> {
    return this.#state.call((object) => object.completeKey(key, answer, takenAt))
  }

  unanswered(now: number, limit: number): Promise<UnansweredKey[]> {
    return this.#state.call((object) => object.unansweredKeys(now, limit))
  }

  release(key: string): Promise<void> {
    return this.#state.call((object) => object.releaseKey(key))
  }

  ping(): Promise<void> {
    return this.#state.call((object) => object.ping())
  }

  prune(now: number): Promise<number> {
    return this.#state.call((object) => object.pruneKeys(now))
  }
}
