import type { Context } from 'hono'

/**
 * Work that goes on after its request was answered: a send the client stopped waiting for
 * (504) is still followed, and its outcome kept. On the Workers runtime it is handed to
 * `waitUntil`; on Node it is tracked here, so that a stop can wait for it.
 */
export class Background {
  readonly #tasks = new Set<Promise<unknown>>()

  keep(task: Promise<unknown>, c: Context): void {
    const quiet = task.catch(() => {})
    let waitUntil: ((promise: Promise<unknown>) => void) | undefined
    try {
      const context = c.executionCtx
      waitUntil = context.waitUntil.bind(context)
    } catch {
      // No execution context: not the Workers runtime.
    }
    if (waitUntil) {
      waitUntil(quiet)
      return
    }
    this.#tasks.add(quiet)
    void quiet.finally(() => this.#tasks.delete(quiet))
  }

  /** How many are still running. */
  get size(): number {
    return this.#tasks.size
  }

  /** Resolves once every task has ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#tasks])
  }
}
