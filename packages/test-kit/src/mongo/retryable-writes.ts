import { type Document, EJSON } from 'bson'

/** How many answers are kept for writes that may be tried again. */
const kept = 10_000

/**
 * The answers to retryable writes (those with `lsid` and `txnNumber`, which the driver sends to
 * a replica set member): a write tried again after a lost answer gets the first answer again
 * instead of being applied twice, as MongoDB does.
 */
export class RetryableWrites {
  readonly #answers = new Map<string, Document>()

  /** The answer `write` gave this session's transaction number, or runs it and keeps its answer. */
  once(body: Document, write: () => Document): Document {
    if (body.lsid === undefined || body.txnNumber === undefined) return write()
    const key = EJSON.stringify({ lsid: body.lsid, txnNumber: body.txnNumber })
    const answered = this.#answers.get(key)
    if (answered) return answered
    const answer = write()
    this.#answers.set(key, answer)
    if (this.#answers.size > kept) this.#answers.delete(this.#answers.keys().next().value ?? '')
    return answer
  }
}
