import { createServer, type Server, type Socket } from 'node:net'
import { type Document, Long } from 'bson'
import { decodeCommand, encodeReply, takeMessages, type WireCommand } from './wire-codec.js'

/** How the stand-in treats what it receives; see the methods of the same names. */
type Mode = 'answer' | 'stall commands' | 'stall all' | 'drop'

const heartbeats = new Set(['hello', 'isMaster', 'ismaster'])
const defaultBatchSize = 101
/** The id of the change stream's cursor: one stream at a time is all a test needs. */
const changeCursorId = 7_000_000

export type StandInOptions = {
  /** Answers `hello` as a member of this replica set (with change streams), not a standalone. */
  setName?: string
  /** The server's wire version in `hello`: 21 (MongoDB 7.0) unless given. */
  maxWireVersion?: number
}

/** A getMore on the change stream waiting for a change, as a server holds it up to `maxTimeMS`. */
type HeldGetMore = { socket: Socket; command: WireCommand; timer: NodeJS.Timeout }

/**
 * Just enough of a MongoDB server, over the wire protocol on 127.0.0.1, to make the driver's
 * operations succeed, and then to stop answering on command. Not a database: `find` answers
 * every inserted document whatever the filter, `update` and `delete` match nothing. A change
 * stream (`aggregate` with `$changeStream`) answers the changes a test pushes, in order.
 */
export class MongoStandIn {
  /** Every command received, in order, answered or not. */
  readonly commands: WireCommand[] = []
  readonly #server: Server
  readonly #sockets = new Set<Socket>()
  readonly #documents: Document[] = []
  readonly #cursors = new Map<number, Document[]>()
  readonly #setName: string | undefined
  readonly #maxWireVersion: number
  /** Replies a test chose for the next commands of a name, before any other answer. */
  readonly #scripted = new Map<string, Document[]>()
  /** Changes pushed and not yet answered to the change stream. */
  readonly #changes: Document[] = []
  #resumeToken: Document = { _data: '8200000001' }
  #held: HeldGetMore | undefined
  #mode: Mode = 'answer'
  /** A command name that, once it comes, stalls it and every command after it. */
  #stallAt: string | undefined
  #lastId = 0

  private constructor({ setName, maxWireVersion = 21 }: StandInOptions) {
    this.#setName = setName
    this.#maxWireVersion = maxWireVersion
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
   * Reads commands and never answers them. By default `hello` (handshakes and heartbeats) is still
   * answered, as by a server whose monitoring thread lives on while operations hang.
   */
  stall(what: 'commands' | 'all' = 'commands'): void {
    this.#mode = what === 'all' ? 'stall all' : 'stall commands'
  }

  /** Answers until a `name` command comes (a list's second batch: `getMore`), then stalls. */
  stallAt(name: string): void {
    this.#stallAt = name
  }

  /** Closes every open connection, and each new one as it arrives, until `answer()`. */
  dropConnections(): void {
    this.#mode = 'drop'
    for (const socket of this.#sockets) socket.destroy()
  }

  /**
   * Answers the next `name` command with `reply` as it is (`{ ok: 0, code, errmsg }` for an
   * error), whatever it asks; a change stream's waiting getMore at once.
   */
  replyNext(name: string, reply: Document): void {
    this.#scripted.set(name, [...(this.#scripted.get(name) ?? []), reply])
    this.#answerHeld()
  }

  /** Gives the change stream a change event (its `_id` is the resume token), at once if it waits. */
  pushChange(change: Document): void {
    this.#changes.push(change)
    this.#answerHeld()
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
    clearTimeout(this.#held?.timer)
    for (const socket of this.#sockets) socket.destroy()
    await new Promise((resolve) => this.#server.close(resolve))
  }

  #accept(socket: Socket): void {
    if (this.#mode === 'drop') return void socket.destroy()
    this.#sockets.add(socket)
    socket.once('close', () => this.#sockets.delete(socket))
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
    if (command.name === this.#stallAt) this.#mode = 'stall commands'
    const stalled =
      this.#mode === 'stall all' ||
      (this.#mode === 'stall commands' && !heartbeats.has(command.name))
    if (stalled || command.moreToCome) return
    const scripted = this.#scripted.get(command.name)?.shift()
    if (scripted) this.#send(socket, command, scripted)
    else if (this.#waitsForChanges(command)) this.#hold(socket, command)
    else this.#send(socket, command, { ...this.#reply(command), ok: 1 })
  }

  #send(socket: Socket, command: WireCommand, reply: Document): void {
    socket.write(encodeReply(command, reply, ++this.#lastId))
  }

  #waitsForChanges({ name, body }: WireCommand): boolean {
    return name === 'getMore' && body.getMore === changeCursorId && this.#changes.length === 0
  }

  /** Holds a change stream's getMore until a change or a scripted reply comes, or `maxTimeMS`. */
  #hold(socket: Socket, command: WireCommand): void {
    clearTimeout(this.#held?.timer)
    const timer = setTimeout(() => this.#answerHeld(true), command.body.maxTimeMS ?? 1_000)
    this.#held = { socket, command, timer }
  }

  #answerHeld(timedOut = false): void {
    const held = this.#held
    const scripted = this.#scripted.get('getMore') ?? []
    if (!held || (!timedOut && this.#changes.length === 0 && scripted.length === 0)) return
    clearTimeout(held.timer)
    this.#held = undefined
    // A stalled server answers nothing, a waiting getMore included.
    if (this.#mode !== 'answer') return
    this.#send(
      held.socket,
      held.command,
      scripted.shift() ?? { ...this.#reply(held.command), ok: 1 },
    )
  }

  #reply({ name, body }: WireCommand): Document {
    switch (name) {
      case 'hello':
      case 'isMaster':
      case 'ismaster':
        // No `topologyVersion`: the driver then polls with `hello` instead of streaming heartbeats.
        return {
          helloOk: true,
          isWritablePrimary: true,
          ismaster: true,
          maxBsonObjectSize: 16 * 1024 * 1024,
          maxMessageSizeBytes: 48_000_000,
          maxWriteBatchSize: 100_000,
          localTime: new Date(),
          logicalSessionTimeoutMinutes: 30,
          connectionId: ++this.#lastId,
          minWireVersion: 0,
          maxWireVersion: this.#maxWireVersion,
          ...(this.#setName && { setName: this.#setName }),
        }
      case 'find': {
        const documents = this.#documents.slice(0, body.limit || undefined)
        const { id, batch } = this.#batch(documents, body.batchSize)
        return { cursor: { id, ns: `${body.$db}.${body.find}`, firstBatch: batch } }
      }
      case 'aggregate':
        if (!body.pipeline?.[0]?.$changeStream) return {}
        return this.#changeBatch(body, 'firstBatch')
      case 'getMore': {
        if (body.getMore === changeCursorId) return this.#changeBatch(body, 'nextBatch')
        const documents = this.#cursors.get(body.getMore) ?? []
        this.#cursors.delete(body.getMore)
        const { id, batch } = this.#batch(documents, body.batchSize)
        return { cursor: { id, ns: `${body.$db}.${body.collection}`, nextBatch: batch } }
      }
      case 'insert':
        this.#documents.push(...body.documents)
        return { n: body.documents.length }
      case 'update':
        return { n: 0, nModified: 0 }
      case 'delete':
        return { n: 0 }
      default:
        // ping, endSessions, killCursors, createIndexes: nothing to say beyond ok.
        return {}
    }
  }

  /** Every change pushed and not yet answered, and the resume token after them. */
  #changeBatch(body: Document, batch: 'firstBatch' | 'nextBatch'): Document {
    const changes = this.#changes.splice(0)
    this.#resumeToken = changes.at(-1)?._id ?? this.#resumeToken
    const ns = `${body.$db}.${body.aggregate ?? body.collection}`
    const cursor = { id: Long.fromNumber(changeCursorId), ns, [batch]: changes }
    return { cursor: { ...cursor, postBatchResumeToken: this.#resumeToken } }
  }

  /** The first `size` of `documents`, and a cursor id for the rest when any remain. */
  #batch(documents: Document[], size = defaultBatchSize): { id: Long; batch: Document[] } {
    const rest = documents.slice(size)
    if (rest.length === 0) return { id: Long.ZERO, batch: documents }
    const id = ++this.#lastId
    this.#cursors.set(id, rest)
    return { id: Long.fromNumber(id), batch: documents.slice(0, size) }
  }
}
