import type {
  DurableObjectId,
  DurableObjectNamespace,
  DurableObjectStub,
} from '@cloudflare/workers-types'
import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import type { MailStateObject } from './mail-state-object.js'

/** The binding of the mail state object's class (`MAIL_STATE` in wrangler.toml). */
export type MailStateNamespace = DurableObjectNamespace<MailStateObject>

/** The name of the one object that holds the service's state. */
export const mailStateName = 'mail-state'

/**
 * The way to the mail state object, for the adapters: each call gets a stub of its own (a
 * stub that saw an error fails every later call, and none is kept across requests), and a
 * failed call becomes store-kit's StoreFullError when the object's storage is full, otherwise
 * StoreUnavailableError. The object's id is kept: naming it hashes the name, on every one of a
 * send's calls otherwise, and an id is a value that any request may use.
 * @example const state = new MailState(env.MAIL_STATE); await state.call((o) => o.ping())
 */
export class MailState {
  readonly #namespace: MailStateNamespace
  readonly #name: string
  #id: DurableObjectId | undefined

  /** @param name another object than the service's, for tests */
  constructor(namespace: MailStateNamespace, name = mailStateName) {
    this.#namespace = namespace
    this.#name = name
  }

  async call<T>(
    operation: (object: DurableObjectStub<MailStateObject>) => PromiseLike<T>,
  ): Promise<T> {
    this.#id ??= this.#namespace.idFromName(this.#name)
    const object = this.#namespace.get(this.#id)
    try {
      return await operation(object)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (/SQLITE_FULL|disk is full|exceeded.*size/i.test(message)) {
        throw new StoreFullError('no space left in the mail state object', { cause: error })
      }
      throw new StoreUnavailableError(`the mail state object failed: ${message}`, { cause: error })
    }
  }
}
