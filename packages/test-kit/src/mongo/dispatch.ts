import type { Document } from 'bson'
import { Catalog } from './catalog.js'
import { ChangeLog } from './change-log.js'
import { ChangeStreams } from './change-streams.js'
import { asCommandError, CommandError } from './command-error.js'
import { Cursors } from './cursors.js'
import { findAndModify } from './find-and-modify.js'
import { buildInfo, type Handshake, hello } from './handshake.js'
import { collMod, createIndexes, dropIndexes, listIndexes } from './index-commands.js'
import * as namespaces from './namespace-commands.js'
import { aggregate, count, find } from './read-commands.js'
import { RetryableWrites } from './retryable-writes.js'
import { TtlMonitor } from './ttl-monitor.js'
import { insert, remove, update } from './write-commands.js'

export type DispatchOptions = Handshake & {
  /** How many changes the change log keeps for streams to resume from. */
  changeHistory: number
  /** How often the TTL monitor runs. */
  ttlMonitorMs: number
  /** Told after every change, to answer the getMores that wait for one. */
  changed: () => void
}

/** What a command comes to: an answer, or (a change stream's getMore) a wait for a change. */
export type Outcome = { reply: Document } | { waitMs: number }

type Handler = (body: Document) => Document

/** How long a change stream's getMore waits without `maxTimeMS`: MongoDB's one second. */
const defaultAwaitMs = 1_000
const writes = new Set(['insert', 'update', 'delete', 'findAndModify'])

/**
 * The database behind the wire: every command by its name, run at once and whole (one at a
 * time, so each write is atomic, as a document write is in MongoDB). Queries, updates and
 * pipelines are evaluated by mingo over the collections of the catalog.
 */
export class CommandDispatch {
  readonly #catalog: Catalog
  readonly #cursors = new Cursors()
  readonly #streams: ChangeStreams
  readonly #ttl: TtlMonitor
  readonly #retryable = new RetryableWrites()
  readonly #handlers: Record<string, Handler>
  readonly #replicaSet: boolean

  constructor(options: DispatchOptions) {
    this.#catalog = new Catalog(new ChangeLog(options.changeHistory, options.changed))
    this.#streams = new ChangeStreams(this.#catalog, this.#cursors)
    this.#ttl = new TtlMonitor(this.#catalog, options.ttlMonitorMs)
    this.#replicaSet = options.setName !== undefined
    this.#handlers = this.#handlersOf(options)
  }

  /** Runs a command; `mayWait`: a change stream's getMore that finds no change may wait for one. */
  run(body: Document, name: string, mayWait: boolean): Outcome {
    try {
      if (body.startTransaction || body.autocommit === false) {
        throw new CommandError('IllegalOperation', 'the test server does not run transactions')
      }
      if (name === 'getMore' && this.#streams.has(body.getMore)) {
        const answer = this.#streams.more(body, mayWait)
        return answer
          ? { reply: { ...answer, ok: 1 } }
          : { waitMs: body.maxTimeMS ?? defaultAwaitMs }
      }
      const handler = this.#handlers[name]
      if (!handler) throw new CommandError('CommandNotFound', `no such command: '${name}'`)
      const reply = writes.has(name)
        ? this.#retryable.once(body, () => handler(body))
        : handler(body)
      return { reply: { ...reply, ok: 1 } }
    } catch (error) {
      return { reply: asCommandError(error).reply() }
    }
  }

  /** Runs a pass of the TTL monitor now; answers how many documents it removed. */
  expireNow(): number {
    return this.#ttl.pass()
  }

  close(): void {
    this.#ttl.stop()
  }

  #handlersOf(handshake: Handshake): Record<string, Handler> {
    const catalog = this.#catalog
    const cursors = this.#cursors
    const greet = () => hello(handshake)
    return {
      hello: greet,
      isMaster: greet,
      ismaster: greet,
      ping: () => ({}),
      buildInfo: () => buildInfo(handshake),
      buildinfo: () => buildInfo(handshake),
      endSessions: () => ({}),
      insert: (body) => insert(catalog, body),
      update: (body) => update(catalog, body),
      delete: (body) => remove(catalog, body),
      findAndModify: (body) => findAndModify(catalog, body),
      find: (body) => find(catalog, cursors, body),
      aggregate: (body) => this.#aggregate(body),
      count: (body) => count(catalog, body),
      getMore: (body) => cursors.more(body.getMore, body.batchSize),
      killCursors: (body) => this.#killCursors(body.cursors ?? []),
      createIndexes: (body) => createIndexes(catalog, body),
      listIndexes: (body) => listIndexes(catalog, cursors, body),
      dropIndexes: (body) => dropIndexes(catalog, body),
      collMod: (body) => collMod(catalog, body),
      create: (body) => namespaces.create(catalog, body),
      drop: (body) => namespaces.drop(catalog, body),
      dropDatabase: (body) => namespaces.dropDatabase(catalog, body),
      listCollections: (body) => namespaces.listCollections(catalog, cursors, body),
      listDatabases: () => namespaces.listDatabases(catalog),
    }
  }

  #aggregate(body: Document): Document {
    if (!body.pipeline?.[0]?.$changeStream) return aggregate(this.#catalog, this.#cursors, body)
    if (!this.#replicaSet) {
      throw new CommandError(
        'Location40573',
        'The $changeStream stage is only supported on replica sets',
      )
    }
    return this.#streams.open(body)
  }

  #killCursors(ids: unknown[]): Document {
    const killed = [...this.#cursors.kill(ids), ...this.#streams.kill(ids)]
    const notFound = ids.filter((id) => !killed.includes(id))
    return {
      cursorsKilled: killed,
      cursorsNotFound: notFound,
      cursorsAlive: [],
      cursorsUnknown: [],
    }
  }
}
