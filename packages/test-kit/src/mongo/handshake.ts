import type { Document } from 'bson'

/** The server's version for each wire version a test may ask for (7.0 unless told). */
const versions: Record<number, string> = {
  13: '5.0.0',
  17: '6.0.0',
  21: '7.0.0',
  25: '8.0.0',
}

export type Handshake = {
  /** A replica set member of this name, the primary; a standalone when absent. */
  setName: string | undefined
  maxWireVersion: number
  /** host:port, as clients reach the server. */
  address: () => string
}

let connections = 0

/**
 * The answer to `hello` (`isMaster`, `ismaster`): the one server of a standalone or of a replica
 * set, where it is the primary. No `topologyVersion`: the driver then polls with `hello` instead
 * of streaming heartbeats, which the fault modes could not stall.
 */
export function hello({ setName, maxWireVersion, address }: Handshake): Document {
  const member = setName && {
    setName,
    setVersion: 1,
    hosts: [address()],
    primary: address(),
    me: address(),
  }
  return {
    helloOk: true,
    isWritablePrimary: true,
    ismaster: true,
    ...member,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ++connections,
    minWireVersion: 0,
    maxWireVersion,
  }
}

export function buildInfo({ maxWireVersion }: Handshake): Document {
  const version = versions[maxWireVersion] ?? '7.0.0'
  return {
    version,
    versionArray: [...version.split('.').map(Number), 0],
    gitVersion: 'the MongoDB stand-in of the test kit',
    maxBsonObjectSize: 16 * 1024 * 1024,
  }
}
