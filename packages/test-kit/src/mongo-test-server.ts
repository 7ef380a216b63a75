import { afterAll, beforeAll } from 'vitest'
import { MongoStandIn, type StandInOptions } from './mongo-stand-in.js'

export type MongoTestServer = {
  /** The server's URL, known once the suite has started. */
  url: () => string
  /** Whether it is the test kit's MongoStandIn: where it differs from MongoDB, tests say so. */
  isStandIn: boolean
}

/**
 * The MongoDB server of the enclosing suite: the one `TEST_MONGODB_URL` names, or else a
 * MongoStandIn started before the suite and closed after it (the primary of replica set `rs0`
 * unless `options` say otherwise: change streams and retryable writes, as on Atlas). Says once
 * which, naming `what` ran against it.
 * @example const server = useMongoServer('MongoItemStore contract suite')
 */
export function useMongoServer(
  what: string,
  options: StandInOptions = { setName: 'rs0' },
): MongoTestServer {
  const real = process.env.TEST_MONGODB_URL
  let standIn: MongoStandIn | undefined
  beforeAll(async () => {
    if (!real) standIn = await MongoStandIn.start(options)
    console.log(
      real
        ? `${what}: run against TEST_MONGODB_URL (${withoutSecrets(real)})`
        : `${what}: run against the test kit's MongoStandIn (mingo); set TEST_MONGODB_URL=mongodb://... to run it against a MongoDB server`,
    )
  })
  afterAll(async () => {
    await standIn?.close()
  })
  const url = () => {
    const started = real ?? standIn?.url
    if (!started) throw new Error('the MongoDB server is known once the suite has started')
    return started
  }
  return { url, isStandIn: !real }
}

/** The URL without its user, password and options, which may hold secrets. */
function withoutSecrets(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//').replace(/\?.*$/, '')
}
