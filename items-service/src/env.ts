import {
  defineSettings,
  httpUrl,
  milliseconds,
  origins,
  port,
  type RawEnv,
  text,
} from '@movies-and-mail/http-kit'

export type Settings = {
  port: number
  host: string
  /** Set when the items live in MongoDB instead of the embedded store. */
  connectionUrl: string | undefined
  dbName: string
  collectionName: string
  dataDir: string
  /** The `x-apikey` writes need; writes are open when unset. */
  apiKey: string | undefined
  corsOrigins: string[]
  /** How long start-up waits for the database. */
  connectTimeoutMs: number
  /** How long a stop waits for requests in flight before it closes their connections. */
  shutdownTimeoutMs: number
  /** Where the page sends mail: an absolute URL, or a path on the page's own origin. */
  mailServiceUrl: string
}

const settings = defineSettings(
  {
    PORT: port().default(4000),
    HOST: text().default('0.0.0.0'),
    CONNECTION_URL: text()
      .refine((url) => /^mongodb(\+srv)?:\/\//.test(url), {
        error: 'must start with mongodb:// or mongodb+srv://',
      })
      .optional(),
    DB_NAME: text().default('data'),
    COLLECTION_NAME: text().default('movies'),
    DATA_DIR: text().default('.data'),
    ITEMS_APIKEY: text().optional(),
    CORS_ORIGINS: origins().default(['*']),
    CONNECT_TIMEOUT_MS: milliseconds().default(10_000),
    SHUTDOWN_TIMEOUT_MS: milliseconds().default(10_000),
    // A space serves the mail micro at /mail, on the page's own origin.
    MAIL_SERVICE_URL: httpUrl({ orPath: true }).default('http://localhost:4001'),
  },
  {
    keys: ['ITEMS_APIKEY'],
    toSettings: (env): Settings => ({
      port: env.PORT,
      host: env.HOST,
      connectionUrl: env.CONNECTION_URL,
      dbName: env.DB_NAME,
      collectionName: env.COLLECTION_NAME,
      dataDir: env.DATA_DIR,
      apiKey: env.ITEMS_APIKEY,
      corsOrigins: env.CORS_ORIGINS,
      connectTimeoutMs: env.CONNECT_TIMEOUT_MS,
      shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
      mailServiceUrl: env.MAIL_SERVICE_URL,
    }),
  },
)

/** Every setting items-service reads, by name. */
export const settingNames = settings.names

/**
 * The secrets an environment holds, keys and the passwords in URLs, for redacting messages
 * that libraries write (such as a driver's error at start), whether or not the settings parse.
 */
export function secretValues(raw: RawEnv): string[] {
  return settings.secrets(raw)
}

/**
 * Reads the settings once from an environment-like record. Empty or blank strings count as
 * unset, so `FOO=` in a shell falls back to the default (and `PORT=' '` does not become port 0).
 * @throws SettingsError naming every bad setting, for a readable start-up failure; a URL's
 *   password and a key's value never appear in it.
 */
export function parseEnv(raw: RawEnv): Settings {
  return settings.parse(raw)
}
