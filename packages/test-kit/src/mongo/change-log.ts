import { type Document, Timestamp } from 'bson'
import { CommandError } from './command-error.js'

export type OperationType = 'insert' | 'update' | 'replace' | 'delete' | 'drop' | 'dropDatabase'

/** One write as the oplog keeps it, for the change streams to tell. */
export type Change = {
  /** Its place in the log: 1, 2, 3... */
  seq: number
  operationType: OperationType
  clusterTime: Timestamp
  wallTime: Date
  db: string
  /** Absent for `dropDatabase`. */
  coll?: string
  documentKey?: Document
  /** The document written by an insert or a replace. */
  document?: Document
  /** The document before an update, replace or delete, where the collection keeps pre-images. */
  before?: Document
  /** The document after an update, where the collection keeps post-images. */
  after?: Document
  updateDescription?: Document
}

export type NewChange = Omit<Change, 'seq' | 'clusterTime' | 'wallTime'>

/**
 * The writes of every database, in order, as long as `limit` allows: a stream resuming from a
 * token older than that is refused with ChangeStreamHistoryLost, as by a server whose oplog
 * rolled over.
 */
export class ChangeLog {
  readonly #limit: number
  readonly #changed: () => void
  readonly #changes: Change[] = []
  #last = 0
  /** The last change forgotten: none can resume from before it. */
  #lost: Change | undefined

  /** @param changed told after each change, to wake the streams that wait */
  constructor(limit: number, changed: () => void) {
    this.#limit = limit
    this.#changed = changed
  }

  /** The place of the latest change: a stream opened now starts after it. */
  get last(): number {
    return this.#last
  }

  record(change: NewChange): void {
    const seq = ++this.#last
    const clusterTime = new Timestamp({ t: Math.floor(Date.now() / 1000), i: seq })
    this.#changes.push({ seq, clusterTime, wallTime: new Date(), ...change })
    while (this.#changes.length > this.#limit) this.#lost = this.#changes.shift()
    this.#changed()
  }

  /** The changes after `position`. @throws ChangeStreamHistoryLost when some were forgotten */
  after(position: number): Change[] {
    if (this.#lost && position < this.#lost.seq) throw historyLost()
    const first = this.#changes[0]?.seq ?? this.#last + 1
    return this.#changes.slice(Math.max(0, position + 1 - first))
  }

  /** The place before the first change at or after `time` (`startAtOperationTime`). */
  before(time: Timestamp): number {
    if (this.#lost && this.#lost.clusterTime.compare(time) >= 0) throw historyLost()
    const next = this.#changes.find((change) => change.clusterTime.compare(time) >= 0)
    return next ? next.seq - 1 : this.#last
  }
}

/** A resume token: `_data` is hex that sorts as the changes came; an invalidate sorts after its drop. */
export function tokenOf(seq: number, invalidate = false): Document {
  const place = seq.toString(16).toUpperCase().padStart(16, '0')
  return { _data: `82${place}${invalidate ? '01' : '00'}` }
}

/** The place a token names. @throws InvalidResumeToken for a token not of this server's making */
export function placeOf(token: unknown): { seq: number; invalidate: boolean } {
  const data = (token as { _data?: unknown } | null)?._data
  const match = typeof data === 'string' ? /^82([0-9A-F]{16})(0[01])$/.exec(data) : null
  if (!match) throw new CommandError('InvalidResumeToken', 'cannot decode the resume token')
  return { seq: Number.parseInt(match[1] ?? '', 16), invalidate: match[2] === '01' }
}

function historyLost(): CommandError {
  return new CommandError(
    'ChangeStreamHistoryLost',
    'Executor error during getMore :: caused by :: Resume of change stream was not possible, ' +
      'as the resume point may no longer be in the oplog.',
  )
}
