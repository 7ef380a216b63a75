import { randomBytes } from 'node:crypto'

/**
 * Makes `_id`s shaped like MongoDB ObjectIds (24 lowercase hex characters: seconds, a random
 * process value, a counter) that always sort after every id seen so far, so that ordering by
 * `_id` is insertion order even across restarts within the same second.
 */
export class ObjectIdSequence {
  #last = ''
  #counter = randomBytes(3).readUIntBE(0, 3)
  readonly #process = randomBytes(5).toString('hex')

  /** Makes later ids sort after `id`. */
  observe(id: string): void {
    if (id > this.#last) this.#last = id
  }

  next(): string {
    this.#counter = (this.#counter + 1) % 0x1000000
    const seconds = Math.floor(Date.now() / 1000)
    let id = hex(seconds, 8) + this.#process + hex(this.#counter, 6)
    if (id <= this.#last) id = increment(this.#last)
    this.#last = id
    return id
  }
}

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, '0')
}

function increment(id: string): string {
  return (BigInt(`0x${id}`) + 1n).toString(16).padStart(24, '0')
}
