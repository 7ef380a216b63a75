import type { DurableObjectState } from '@cloudflare/workers-types'
import type { CollectionApp, Fetch } from './collection-app.js'

/** The Worker's variables and secrets, as the runtime hands them in. */
export type Bindings = Record<string, unknown>

/** The bindings that are settings: strings (the Durable Object namespace is not one). */
export function settingsOf(bindings: Bindings): Record<string, string> {
  return Object.fromEntries(
    Object.entries(bindings).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  )
}

/**
 * One collection's Durable Object, the class the platform makes (`ItemsObject` in wrangler.toml).
 * What it runs, the app and its store (`CollectionApp`), is a module it loads with its first
 * request: the Worker's module, evaluated by every isolate that starts, holds only this and the
 * hop to the object; an isolate that only hands requests on never evaluates zod, Hono or the
 * routes.
 */
export class ItemsObject {
  readonly #state: DurableObjectState
  readonly #bindings: Bindings
  #loading: Promise<CollectionApp> | undefined
  /** The app once open: every request after that goes straight to it. */
  #opened: Fetch | undefined

  constructor(state: DurableObjectState, bindings: Bindings) {
    this.#state = state
    this.#bindings = bindings
  }

  fetch(request: Request): Response | Promise<Response> {
    return this.#opened ? this.#opened(request) : this.#load(request)
  }

  async #load(request: Request): Promise<Response> {
    this.#loading ??= import('./collection-app.js').then(
      ({ CollectionApp }) => new CollectionApp(this.#state, settingsOf(this.#bindings)),
    )
    const collection = await this.#loading
    const answer = await collection.fetch(request)
    this.#opened ??= collection.opened
    return answer
  }
}
