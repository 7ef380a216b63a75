import { createServer, type Server, type Socket } from 'node:net'
import { type Document, Long } from 'bson'
import { decodeCommand, encodeReply, takeMessages, type WireCommand } from './wire-codec.js'

/** How the stand-in treats what it receives; see the methods of the same names. */
type Mode = 'answer' | 'stall commands' | 'stall all' | 'drop'

const heartbeats = new Set(['hello', 'isMaster', 'ismaster'])
const defaultBatchSize = 101

/**
 * Just enough of a MongoDB server, over the wire protocol on 127.0.0.1, to make the driver's
 * operations succeed, and then to stop answering on command. Not a database: `find` answers
 * every inserted document whatever the filter, `update` and `delete` match nothing.
 */
export class MongoStandIn {
  /** Every command received, in order, answered or not. */
  readonly commands: WireCommand[] = []
  readonly #server: Server
  readonly #sockets = new Set<Socket>()
  readonly #documents: Document[] = []
  readonly #cursors = new Map<number, Document[]>()
  #mode: Mode = 'answer'
  #lastId = 0

  private constructor() {
    this.#server = createServer((socket) => this.#accept(socket))
  }

  /** Starts a stand-in on a free port. */
  static async start(): Promise<MongoStandIn> {
    const standIn = new MongoStandIn()
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
  }

  /**
   * Reads commands and never answers them. By default `hello` (handshakes and heartbeats) is still
   * answered, as by a server whose monitoring thread lives on while operations hang.
   */
  stall(what: 'commands' | 'all' = 'commands'): void {
    this.#mode = what === 'all' ? 'stall all' : 'stall commands'
  }

  /** Closes every open connection, and each new one as it arrives, until `answer()`. */
  dropConnections(): void {
    this.#mode = 'drop'
    for (const socket of this.#sockets) socket.destroy()
  }

  /** The names of the commands received, heartbeats left out. */
  commandNames(): string[] {
    return this.commands.map((command) => command.name).filter((name) => !heartbeats.has(name))
  }

  async close(): Promise<void> {
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
    const stalled =
      this.#mode === 'stall all' ||
      (this.#mode === 'stall commands' && !heartbeats.has(command.name))
    if (stalled || command.moreToCome) return
    socket.write(encodeReply(command, { ...this.#reply(command), ok: 1 }, ++this.#lastId))
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
          maxWireVersion: 21,
        }
      case 'find': {
        const documents = this.#documents.slice(0, body.limit || undefined)
        const { id, batch } = this.#batch(documents, body.batchSize)
        return { cursor: { id, ns: `${body.$db}.${body.find}`, firstBatch: batch } }
      }
      case 'getMore': {
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

  /** The first `size` of `documents`, and a cursor id for the rest when any remain. */
  #batch(documents: Document[], size = defaultBatchSize): { id: Long; batch: Document[] } {
    const rest = documents.slice(size)
    if (rest.length === 0) return { id: Long.ZERO, batch: documents }
    const id = ++this.#lastId
    this.#cursors.set(id, rest)
    return { id: Long.fromNumber(id), batch: documents.slice(0, size) }
  }
}
