/**
 * The errors every store of both micros throws when it cannot do what it was asked, whatever
 * its engine: each micro's app answers them (503, 507) with their message, and nothing else
 * needs to know which store it was.
 */

/**
 * The store did not answer, or could not write; nothing of a write was stored, unless the
 * message says it was (the write went through and the answer could not be read). Retry later.
 */
export class StoreUnavailableError extends Error {
  constructor(message = 'the store does not answer', options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StoreUnavailableError'
  }
}

/** The disk has no room for the write; nothing of it was stored. */
export class StoreFullError extends Error {
  constructor(message = 'no space left to store the write', options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StoreFullError'
  }
}
