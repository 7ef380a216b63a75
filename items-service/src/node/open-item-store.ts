import { withDeadline } from '@movies-and-mail/store-kit'
import type { Settings } from '../env.js'
import { EmbeddedItemStore } from '../store/embedded/embedded-item-store.js'
import type { ItemStore } from '../store/item-store.js'

export type OpenedItemStore = {
  store: ItemStore
  description: string
  /** What opening the store did that the start-up log should say. */
  notices: string[]
}

/**
 * The store the settings name: MongoDB when CONNECTION_URL is set, the embedded one otherwise,
 * opened within CONNECT_TIMEOUT_MS (a database that does not answer fails the start in time).
 */
export function openItemStore(settings: Settings): Promise<OpenedItemStore> {
  return withDeadline(settings.connectTimeoutMs, () => open(settings), { what: 'the database' })
}

async function open(settings: Settings): Promise<OpenedItemStore> {
  if (settings.connectionUrl) {
    // Loaded only when used: the driver is a large share of start-up time otherwise.
    const { MongoItemStore } = await import('../store/mongo/mongo-item-store.js')
    const store = await MongoItemStore.connect({
      url: settings.connectionUrl,
      dbName: settings.dbName,
      collectionName: settings.collectionName,
      timeoutMs: settings.connectTimeoutMs,
    })
    const description = `MongoDB ${settings.dbName}.${settings.collectionName}`
    return { store, description, notices: [] }
  }
  const store = await EmbeddedItemStore.open(settings.dataDir, settings.collectionName)
  const description = `embedded store in ${settings.dataDir}`
  return { store, description, notices: store.notices }
}
