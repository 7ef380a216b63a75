import type { Settings } from '../env.js'
import type { StateStores } from '../ports/state-stores.js'
import { EmbeddedStores } from '../stores/embedded/embedded-stores.js'

/** Where the Node entry keeps its state, what its start-up line says of it, and its close. */
export type NodeStores = {
  stores: StateStores
  /** Which store holds what, for the start-up banner; no password, no key. */
  where: string
  /** Closes what was opened. */
  close(): Promise<void>
}

/**
 * The Node entry's stores, by the settings:
 * - MAIL_CONNECTION_URL: every kind of state in MongoDB, the one choice for several processes
 *   that keeps every rule (one mail per key, a limit counted once) across all of them;
 * - DETA_PROJECT_KEY: every kind in a Deta Base (shared, but without transactions: two
 *   instances may both take a bucket's last slot);
 * - both: the logs (mail log, outbox) stay in the Deta Base, where they were; the keys and the
 *   counts, which need atomic writes, live in MongoDB;
 * - neither: the embedded store in DATA_DIR, for one process.
 * MongoDB is connected here, within MAIL_TIMEOUT_MS; the embedded store opens when first used.
 */
export async function openNodeStores(settings: Settings): Promise<NodeStores> {
  const { mongo, deta, dataDir } = settings
  // The deta SDK (with the fetch and URL polyfills it brings on Node) loads only when used.
  const inDeta = deta && (await import('../stores/deta/deta-stores.js')).detaStores(settings)
  const detaWhere = `Deta Base at ${deta?.host}`
  if (!mongo) {
    if (inDeta) {
      const where = `${detaWhere} (bases maillog, outbox, idempotency, sends)`
      return { stores: inDeta, where, close: async () => {} }
    }
    const local = new EmbeddedStores(dataDir)
    return { stores: local, where: `embedded store in ${dataDir}`, close: () => local.close() }
  }
  // Loaded only when used: the driver is a large share of what a start loads.
  const { MongoState } = await import('../stores/mongo/mongo-state.js')
  const state = await MongoState.connect({
    url: mongo.url,
    dbName: mongo.dbName,
    timeoutMs: settings.mail.timeoutMs,
    retentionDays: settings.mailLogRetentionDays,
  })
  const mongoWhere = `MongoDB at ${serversOf(mongo.url)}, database ${mongo.dbName}`
  const close = () => state.close()
  if (!inDeta) {
    const collections = 'maillog, outbox, idempotency_keys, send_counts'
    return { stores: state, where: `${mongoWhere} (collections ${collections})`, close }
  }
  const stores: StateStores = {
    open: (name) => inDeta.open(name),
    idempotency: () => state.idempotency(),
    sendCounter: () => state.sendCounter(),
    events: () => state.events(),
  }
  const where =
    `mail log and outbox in ${detaWhere} (bases maillog, outbox); idempotency keys and ` +
    `send counts in ${mongoWhere} (collections idempotency_keys, send_counts)`
  return { stores, where, close }
}

/**
 * The servers a MongoDB URL names, without its user, password or options: what a start-up line
 * may say.
 * @example serversOf('mongodb+srv://mail:pw@cluster0.example.net/?w=majority') // 'cluster0.example.net'
 */
export function serversOf(url: string): string {
  // After the last `@`, as the redaction of URLs cuts: a password may hold a `/` unescaped.
  const rest = url.replace(/^mongodb(\+srv)?:\/\//, '')
  return rest.slice(rest.lastIndexOf('@') + 1).split(/[/?]/, 1)[0] ?? ''
}
