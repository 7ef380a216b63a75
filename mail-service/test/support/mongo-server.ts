import { randomBytes } from 'node:crypto'
import { useMongoServer } from '@movies-and-mail/test-kit'
import { type Db, MongoClient } from 'mongodb'
import { afterAll, beforeAll } from 'vitest'

/** A database of its own for this run, so that runs never see each other's data. */
export function databaseName(prefix: string): string {
  return `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`
}

/**
 * For the enclosing suite: one database of its own on the suite's MongoDB server (TEST_MONGODB_URL,
 * or the test kit's MongoStandIn), reached by two clients as two processes would (`db()` and
 * `other()`), dropped after the suite. Says once which server `what` ran against.
 */
export function useMongoDatabase(what: string, prefix: string) {
  const { url } = useMongoServer(what)
  const name = databaseName(prefix)
  const clients: MongoClient[] = []
  beforeAll(async () => {
    for (let n = 0; n < 2; n++) {
      const options = { ignoreUndefined: true, appName: 'mail-service-tests' }
      clients.push(await new MongoClient(url(), options).connect())
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
