import { type Document, Long, type Timestamp } from 'bson'
import type { Catalog } from './catalog.js'
import { type Change, placeOf, tokenOf } from './change-log.js'
import { CommandError } from './command-error.js'
import type { Cursors } from './cursors.js'
import { runPipeline } from './query.js'

/** One open change stream: what it watches, how it tells, and the last change it passed. */
type Stream = {
  id: Long
  namespace: string
  db: string | undefined
  coll: string | undefined
  position: number
  fullDocument: string
  beforeChange: string
  /** The stages after `$changeStream`, run by mingo on each event. */
  pipeline: Document[]
}

const systemDatabases = new Set(['admin', 'config', 'local'])

/**
 * The change streams (`aggregate` whose first stage is `$changeStream`) of a replica set
 * member, each its own cursor over the change log: a collection's, a database's (`aggregate:
 * 1`) or the cluster's (`allChangesForCluster` on admin). Each batch ends with the token to
 * resume from (`postBatchResumeToken`), past the changes the stream does not show.
 */
export class ChangeStreams {
  readonly #catalog: Catalog
  readonly #cursors: Cursors
  readonly #streams = new Map<string, Stream>()

  constructor(catalog: Catalog, cursors: Cursors) {
    this.#catalog = catalog
    this.#cursors = cursors
  }

  has(id: unknown): boolean {
    return this.#streams.has(String(id))
  }

  kill(ids: unknown[]): unknown[] {
    return ids.filter((id) => this.#streams.delete(String(id)))
  }

  /** Opens a stream for `aggregate`; answers its first batch. */
  open(body: Document): Document {
    const [first, ...pipeline] = body.pipeline as Document[]
    const spec: Document = first?.$changeStream ?? {}
    const cluster = spec.allChangesForCluster === true
    const coll = typeof body.aggregate === 'string' ? body.aggregate : undefined
    const stream: Stream = {
      id: this.#cursors.nextId(),
      namespace: `${body.$db}.${coll ?? '$cmd.aggregate'}`,
      db: cluster ? undefined : body.$db,
      coll,
      position: this.#start(spec),
      fullDocument: spec.fullDocument ?? 'default',
      beforeChange: spec.fullDocumentBeforeChange ?? 'off',
      pipeline,
    }
    this.#streams.set(stream.id.toString(), stream)
    return this.#answer(stream, 'firstBatch', body.cursor?.batchSize)
  }

  /** `getMore`: the next batch, or undefined when no change came and the caller may wait for one. */
  more(body: Document, mayWait: boolean): Document | undefined {
    const stream = this.#streams.get(String(body.getMore))
    if (!stream) throw new CommandError('CursorNotFound', `cursor id ${body.getMore} not found`)
    const position = stream.position
    const answer = this.#answer(stream, 'nextBatch', body.batchSize)
    if (!mayWait || answer.cursor.nextBatch.length > 0) return answer
    stream.position = position
    return undefined
  }

  #start(spec: Document): number {
    if (spec.resumeAfter) {
      const { seq, invalidate } = placeOf(spec.resumeAfter)
      if (!invalidate) return seq
      throw new CommandError(
        'InvalidResumeToken',
        "Attempting to resume a change stream using 'resumeAfter' is not allowed from an invalidate notification.",
      )
    }
    if (spec.startAfter) return placeOf(spec.startAfter).seq
    if (spec.startAtOperationTime) {
      return this.#catalog.changes.before(spec.startAtOperationTime as Timestamp)
    }
    return this.#catalog.changes.last
  }

  #answer(stream: Stream, batch: 'firstBatch' | 'nextBatch', batchSize?: number): Document {
    const events: Document[] = []
    let invalidated = false
    try {
      for (const change of this.#catalog.changes.after(stream.position)) {
        if (events.length >= (batchSize || Number.POSITIVE_INFINITY)) break
        stream.position = change.seq
        if (!this.#shows(stream, change)) continue
        const event = this.#event(stream, change)
        if (stream.pipeline.length === 0) events.push(event)
        else events.push(...runPipeline([event], stream.pipeline))
        if (this.#invalidates(stream, change)) {
          events.push({
            _id: tokenOf(change.seq, true),
            operationType: 'invalidate',
            ...times(change),
          })
          invalidated = true
          break
        }
      }
    } catch (error) {
      this.#streams.delete(stream.id.toString())
      throw error
    }
    if (invalidated) this.#streams.delete(stream.id.toString())
    const cursor = {
      [batch]: events,
      postBatchResumeToken: tokenOf(stream.position, invalidated),
      id: invalidated ? Long.ZERO : stream.id,
      ns: stream.namespace,
    }
    return { cursor }
  }

  #shows(stream: Stream, change: Change): boolean {
    if (stream.db === undefined) return !systemDatabases.has(change.db)
    if (stream.coll === undefined) return change.db === stream.db
    return change.db === stream.db && change.coll === stream.coll
  }

  /** A collection's stream ends at the collection's drop; a database's at the database's. */
  #invalidates(stream: Stream, change: Change): boolean {
    if (stream.db === undefined) return false
    return change.operationType === (stream.coll === undefined ? 'dropDatabase' : 'drop')
  }

  #event(stream: Stream, change: Change): Document {
    const { seq, operationType, db, coll, documentKey, updateDescription } = change
    return {
      _id: tokenOf(seq),
      operationType,
      ...times(change),
      ...this.#fullDocument(stream, change),
      ns: coll === undefined ? { db } : { db, coll },
      ...(documentKey && { documentKey }),
      ...(updateDescription && { updateDescription }),
      ...this.#beforeChange(stream, change),
    }
  }

  #fullDocument(stream: Stream, change: Change): Document {
    if (change.document) return { fullDocument: change.document }
    if (change.operationType !== 'update') return {}
    if (stream.fullDocument === 'updateLookup') {
      const collection = this.#catalog.get(change.db, change.coll ?? '')
      return { fullDocument: collection?.byId(change.documentKey?._id) ?? null }
    }
    if (stream.fullDocument === 'default') return {}
    return { fullDocument: available(change.after, stream.fullDocument, 'post') }
  }

  #beforeChange(stream: Stream, change: Change): Document {
    const { operationType } = change
    if (stream.beforeChange === 'off' || !['update', 'replace', 'delete'].includes(operationType)) {
      return {}
    }
    return { fullDocumentBeforeChange: available(change.before, stream.beforeChange, 'pre') }
  }
}

function times({ clusterTime, wallTime }: Change): Document {
  return { clusterTime, wallTime }
}

/** A pre- or post-image: null when not kept (`whenAvailable`), refused when `required`. */
function available(
  image: Document | undefined,
  option: string,
  which: 'pre' | 'post',
): Document | null {
  if (image || option !== 'required') return image ?? null
  throw new CommandError(
    'ChangeStreamFatalError',
    `Change stream was configured to require a ${which}-image for all update, delete and replace events, but no ${which}-image was available`,
  )
}
