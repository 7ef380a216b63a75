import { createServer, type Server, type Socket } from 'node:net'
import type { Document } from 'bson'
import { CommandDispatch } from './mongo/dispatch.js'
import { decodeCommand, encodeReply, takeMessages, type WireCommand } from './mongo/wire-codec.js'

/** How the stand-in treats what it receives; see the methods of the same names. */
type Mode = 'answer' | 'stall commands' | 'stall all' | 'drop'

const heartbeats = new Set(['hello', 'isMaster', 'ismaster'])

export type StandInOptions = {
  /** Answers `hello` as the primary of this replica set (with change streams), not a standalone. */
  setName?: string
  /** The server's wire version in `hello`: 21 (MongoDB 7.0) unless given. */
  maxWireVersion?: number
  /** How often the TTL monitor removes expired documents: every 60 000 ms, as MongoDB's. */
  ttlMonitorMs?: number
  /**
   * How many changes (of all databases) are kept for change streams to resume from: 10 000
   * unless given. A stream resuming from before them fails with ChangeStreamHistoryLost (286).
   */
  changeHistory?: number
}

/** A change stream's getMore waiting for a change, as a server holds it up to `maxTimeMS`. */
type Held = { socket: Socket; command: WireCommand; timer: NodeJS.Timeout }

/**
 * A MongoDB server for tests, not for products: it speaks the wire protocol on 127.0.0.1, keeps
 * its databases in memory and evaluates MongoDB's query language with mingo (an independent
 * implementation of it), so that the official driver, and the product's adapters over it,
 * meet the semantics of a real server. Several clients, of one process or of several, share
 * its data. On command it also fails as a server does: it stalls, stalls at a command, drops
 * connections, or answers what a test scripted.
 *
 * Supports: `insert`, `update` (operators, a replacement, a pipeline with `$$NOW`; `upsert`,
 * `multi`, `arrayFilters`), `delete`, `findAndModify`, `find` (projections with expressions,
 * sort, skip, limit, batches and `getMore`), `aggregate`, `count`, bulk writes as the driver
 * sends them; unique indexes (E11000 with `keyPattern` and `keyValue`), IndexOptionsConflict
 * (85), TTL indexes (a monitor every `ttlMonitorMs`, or `expireNow()`), `collMod`; change
 * streams on a replica set (`setName`): insert, update, replace, delete, drop and invalidate
 * events, `fullDocument: 'updateLookup'`, pre-images where the collection keeps them
 * (`changeStreamPreAndPostImages`, as in MongoDB), resume tokens, `maxAwaitTimeMS`; retryable
 * writes. Sessions' fields are accepted and ignored; transactions are refused.
 *
 * Where it differs from MongoDB (mingo's choices, kept where cheap fixes were not possible):
 * strings inside an array or an embedded document compare as JavaScript compares them, by
 * UTF-16 code units, where MongoDB compares UTF-8 bytes (they differ for characters past U+FFFF
 * against U+E000 to U+FFFF), and so do strings in expressions (`$expr`, `$max`) and
 * `arrayFilters` (sorts and the range operators of filters order strings by code point, as
 * MongoDB does: `codePointContext`); a stored
 * document's integer-like field names (`"1994"`) come first, as in any JavaScript object, where
 * MongoDB keeps the order they were written in; values of different BSON types sort in mingo's
 * order (ObjectIds after dates, where MongoDB puts them before booleans), and Longs beyond 2^53
 * and Decimal128s compare by their text; numbers keep no int/double distinction (an integral
 * double comes back an int32); `$type: 'objectId'` matches nothing. Queries scan their
 * collection, but for an equality on a field with a unique index of its own; an update event's
 * `updateDescription` names top-level fields only. ObjectIds order as in MongoDB (by their 12
 * bytes), as do dates.
 */
export class MongoStandIn {
  /** Every command received, in order, answered or not. */
  readonly commands: WireCommand[] = []
  readonly #server: Server
  readonly #sockets = new Set<Socket>()
  readonly #dispatch: CommandDispatch
  /** Replies a test chose for the next commands of a name, before any other answer. */
  readonly #scripted = new Map<string, Document[]>()
  readonly #held = new Set<Held>()
  #mode: Mode = 'answer'
  /** A command name that, once it comes, stalls it and every command after it. */
  #stallAt: ((name: string, body: Document) => boolean) | undefined
  #wakeQueued = false
  #lastId = 0

  private constructor(options: StandInOptions) {
    this.#dispatch = new CommandDispatch({
      setName: options.setName,
      maxWireVersion: options.maxWireVersion ?? 21,
      address: () => `127.0.0.1:${this.port}`,
      ttlMonitorMs: options.ttlMonitorMs ?? 60_000,
      changeHistory: options.changeHistory ?? 10_000,
      changed: () => this.#queueWake(),
    })
    this.#server = createServer((socket) => this.#accept(socket))
  }

  /** Starts a stand-in on a free port. */
  static async start(options: StandInOptions = {}): Promise<MongoStandIn> {
    const standIn = new MongoStandIn(options)
    await new Promise<void>((resolve) => standIn.#server.listen(0, '127.0.0.1', resolve))
    return standIn
  }

  get port(): number {
    return (this.#server.address() as { port: number }).port
  }

  /** A URL the driver connects to this stand-in with, as to a single server. */
  get url(): string {
    return `mongodb://127.0.0.1:${this.port}/?directConnection=true`
  }

  /** Answers every command from now on; stalled ones stay unanswered. */
  answer(): void {
    this.#mode = 'answer'
    this.#stallAt = undefined
  }

  /**
   * Reads commands and never answers them (nor runs them). By default `hello` (handshakes and
   * heartbeats) is still answered, as by a server whose monitoring thread lives on while
   * operations hang.
   */
  stall(what: 'commands' | 'all' = 'commands'): void {
    this.#mode = what === 'all' ? 'stall all' : 'stall commands'
  }

  /**
   * Answers until a command comes that `at` names, then stalls it and every command after it:
   * a name (a list's second batch: `getMore`), or a test of the command's name and body (the
   * list's `find`, not the read of the newest `_id` before an insert).
   */
  stallAt(at: string | ((name: string, body: Document) => boolean)): void {
    this.#stallAt = typeof at === 'string' ? (name) => name === at : at
  }

  /** Closes every open connection, and each new one as it arrives, until `answer()`. */
  dropConnections(): void {
    this.#mode = 'drop'
    for (const socket of this.#sockets) socket.destroy()
  }

  /**
   * Answers the next `name` command with `reply` as it is (`{ ok: 0, code, errmsg }` for an
   * error) without running it; a change stream's waiting getMore at once.
   */
  replyNext(name: string, reply: Document): void {
    this.#scripted.set(name, [...(this.#scripted.get(name) ?? []), reply])
    const [held] = this.#held
    if (name !== 'getMore' || !held) return
    this.#release(held)
    this.#send(held.socket, held.command, this.#scripted.get(name)?.shift() ?? reply)
  }

  /** Runs a pass of the TTL monitor now; answers how many documents it removed. */
  expireNow(): number {
    return this.#dispatch.expireNow()
  }

  /** The commands received of one name, heartbeats included. */
  received(name: string): Document[] {
    return this.commands.filter((command) => command.name === name).map(({ body }) => body)
  }

  /** The names of the commands received, heartbeats left out. */
  commandNames(): string[] {
    return this.commands.map((command) => command.name).filter((name) => !heartbeats.has(name))
  }

  async close(): Promise<void> {
    for (const held of this.#held) this.#release(held)
    this.#dispatch.close()
    for (const socket of this.#sockets) socket.destroy()
    await new Promise((resolve) => this.#server.close(resolve))
  }

  #accept(socket: Socket): void {
    if (this.#mode === 'drop') return void socket.destroy()
    this.#sockets.add(socket)
    socket.once('close', () => {
      this.#sockets.delete(socket)
      for (const held of this.#held) if (held.socket === socket) this.#release(held)
    })
    socket.on('error', () => {})
    let received: Buffer = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => {
      const { messages, rest } = takeMessages(Buffer.concat([received, chunk]))
      received = rest
      for (const message of messages) this.#receive(socket, decodeCommand(message))
    })
  }

  #receive(socket: Socket, command: WireCommand): void {
    this.commands.push(command)
    if (this.#stallAt?.(command.name, command.body)) this.#mode = 'stall commands'
    const stalled =
      this.#mode === 'stall all' ||
      (this.#mode === 'stall commands' && !heartbeats.has(command.name))
    if (stalled) return
    const scripted = this.#scripted.get(command.name)?.shift()
    if (scripted) return void (command.moreToCome || this.#send(socket, command, scripted))
    const outcome = this.#dispatch.run(command.body, command.name, true)
    if ('waitMs' in outcome) this.#hold(socket, command, outcome.waitMs)
    else if (!command.moreToCome) this.#send(socket, command, outcome.reply)
  }

  #send(socket: Socket, command: WireCommand, reply: Document): void {
    socket.write(encodeReply(command, reply, ++this.#lastId))
  }

  /** Holds a change stream's getMore until a change or a scripted reply comes, or `waitMs`. */
  #hold(socket: Socket, command: WireCommand, waitMs: number): void {
    const held: Held = { socket, command, timer: setTimeout(() => this.#wake(held, true), waitMs) }
    this.#held.add(held)
  }

  /** Wakes the waiting getMores once the command that changed something has run whole. */
  #queueWake(): void {
    if (this.#wakeQueued) return
    this.#wakeQueued = true
    queueMicrotask(() => {
      this.#wakeQueued = false
      for (const held of this.#held) this.#wake(held, false)
    })
  }

  /** Answers a waiting getMore if its stream has a change now, or its wait is over. */
  #wake(held: Held, timedOut: boolean): void {
    // A stalled server answers nothing, a waiting getMore included.
    if (this.#mode !== 'answer') return void this.#release(held)
    const outcome = this.#dispatch.run(held.command.body, held.command.name, !timedOut)
    if ('waitMs' in outcome) return
    this.#release(held)
    this.#send(held.socket, held.command, outcome.reply)
  }

  #release(held: Held): void {
    clearTimeout(held.timer)
    this.#held.delete(held)
  }
}
