/**
 * Makes identifiers shaped like MongoDB ObjectIds (24 lowercase hex characters: seconds, a
 * random value of this sequence, a counter) that always sort after every id seen so far, so
 * that ordering by id is creation order, even across restarts within one second or after the
 * clock was set back. Items use them as `_id`, the mail logs as record keys. Web APIs only.
 * @example const ids = new SortableIdSequence(); ids.observe(lastStoredId); const id = ids.next()
 */
export class SortableIdSequence {
  #last = ''
  // Drawn on first use: the Workers runtime allows no random values while a module loads.
  #counter = -1
  #instance = ''

  /** Makes later ids sort after `id`, when it is one of this shape. */
  observe(id: string): void {
    if (id > this.#last && sortableId.test(id)) this.#last = id
  }

  next(): string {
    if (this.#counter < 0) {
      this.#counter = randomUint(3)
      this.#instance = randomUint(5).toString(16).padStart(10, '0')
    }
    this.#counter = (this.#counter + 1) % 0x1000000
    const seconds = Math.floor(Date.now() / 1000)
    let id = hex(seconds, 8) + this.#instance + hex(this.#counter, 6)
    if (id <= this.#last) id = increment(this.#last)
    this.#last = id
    return id
  }
}

const sortableId = /^[0-9a-f]{24}$/

function randomUint(bytes: number): number {
  return crypto
    .getRandomValues(new Uint8Array(bytes))
    .reduce((value, byte) => value * 256 + byte, 0)
}

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, '0')
}

function increment(id: string): string {
  return (BigInt(`0x${id}`) + 1n).toString(16).padStart(24, '0')
}
