import { type Document, deserialize, serialize } from 'bson'

const opReply = 1
const opQuery = 2004
const opMsg = 2013
const headerBytes = 16
const documentSequence = 1
const moreToComeBit = 2

/** One command as the driver sent it, in either of the two request formats it uses. */
export type WireCommand = {
  /** The command's name: the first key of its document, e.g. `find`. */
  name: string
  db: string
  body: Document
  requestId: number
  opCode: typeof opQuery | typeof opMsg
  /** Set on a command sent with `w: 0` (the driver's `endSessions`): no reply is expected. */
  moreToCome: boolean
}

/** Splits whole messages off the front of what a socket received; the rest waits for more bytes. */
export function takeMessages(received: Buffer): { messages: Buffer[]; rest: Buffer } {
  const messages: Buffer[] = []
  let offset = 0
  while (received.length - offset >= 4) {
    const length = received.readInt32LE(offset)
    if (received.length - offset < length) break
    messages.push(received.subarray(offset, offset + length))
    offset += length
  }
  return { messages, rest: received.subarray(offset) }
}

/**
 * Decodes OP_MSG and the legacy OP_QUERY (the driver's first handshake on a connection).
 * @throws for any other opcode: the stand-in does not speak it.
 */
export function decodeCommand(message: Buffer): WireCommand {
  const requestId = message.readInt32LE(4)
  const opCode = message.readInt32LE(12)
  if (opCode === opQuery) {
    const nameEnd = message.indexOf(0, headerBytes + 4)
    const collection = message.toString('utf8', headerBytes + 4, nameEnd)
    const body = readDocument(message, nameEnd + 1 + 8)
    const db = collection.split('.')[0] ?? ''
    return { name: firstKey(body), db, body, requestId, opCode, moreToCome: false }
  }
  if (opCode !== opMsg) throw new Error(`unsupported opcode ${opCode}`)
  let body: Document = {}
  let offset = headerBytes + 4
  while (offset < message.length) {
    const kind = message.readUInt8(offset)
    if (kind === documentSequence) {
      const size = message.readInt32LE(offset + 1)
      const nameEnd = message.indexOf(0, offset + 5)
      const documents: Document[] = []
      for (let at = nameEnd + 1; at < offset + 1 + size; at += message.readInt32LE(at)) {
        documents.push(readDocument(message, at))
      }
      body[message.toString('utf8', offset + 5, nameEnd)] = documents
      offset += 1 + size
    } else {
      body = { ...readDocument(message, offset + 1), ...body }
      offset += 1 + message.readInt32LE(offset + 1)
    }
  }
  const moreToCome = (message.readUInt32LE(headerBytes) & moreToComeBit) !== 0
  return { name: firstKey(body), db: String(body.$db), body, requestId, opCode, moreToCome }
}

/** Encodes `reply` to `command` in the format the command came in: OP_REPLY or OP_MSG. */
export function encodeReply(command: WireCommand, reply: Document, requestId: number): Buffer {
  const document = serialize(reply)
  const prefix = Buffer.alloc(command.opCode === opQuery ? 20 : 5)
  if (command.opCode === opQuery) prefix.writeInt32LE(1, 16) // numberReturned
  const header = Buffer.alloc(headerBytes)
  header.writeInt32LE(headerBytes + prefix.length + document.length, 0)
  header.writeInt32LE(requestId, 4)
  header.writeInt32LE(command.requestId, 8)
  header.writeInt32LE(command.opCode === opQuery ? opReply : opMsg, 12)
  return Buffer.concat([header, prefix, document])
}

function readDocument(message: Buffer, offset: number): Document {
  return deserialize(message.subarray(offset, offset + message.readInt32LE(offset)))
}

function firstKey(body: Document): string {
  return Object.keys(body)[0] ?? ''
}
