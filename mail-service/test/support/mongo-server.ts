import { randomBytes } from 'node:crypto'
import { type Db, MongoClient } from 'mongodb'
import { afterAll, beforeAll } from 'vitest'

/** A real MongoDB server for the suites that need one; none can be installed on our machines. */
export const mongoUrl = process.env.TEST_MONGODB_URL

/** Says plainly, once per file, that `what` does not run without a server. */
export function sayWhenSkipped(what: string): void {
  if (mongoUrl) return
  console.log(`${what} skipped: set TEST_MONGODB_URL=mongodb://... to run it against a server`)
}

/** A database of its own for this run, so that runs never see each other's data. */
export function databaseName(prefix: string): string {
  return `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`
}

/**
 * For the enclosing suite: one database of its own, reached by two clients as two processes
 * would (`db()` and `other()`), dropped after the suite. Only inside a suite skipped without a
 * server.
 */
export function useMongoDatabase(prefix: string) {
  const name = databaseName(prefix)
  const clients: MongoClient[] = []
  beforeAll(async () => {
    for (let n = 0; n < 2; n++) {
      const options = { ignoreUndefined: true, appName: 'mail-service-tests' }
      clients.push(await new MongoClient(mongoUrl as string, options).connect())
    }
  })
  afterAll(async () => {
    await clients[0]?.db(name).dropDatabase()
    await Promise.all(clients.splice(0).map((client) => client.close()))
  })
  return {
    db: (): Db => (clients[0] as MongoClient).db(name),
    other: (): Db => (clients[1] as MongoClient).db(name),
  }
}
