import {
  apiKey,
  count,
  defineSettings,
  httpUrl,
  milliseconds,
  optional,
  type ServiceSettings,
  SettingsError,
  serviceSettings,
  serviceSettingsOf,
  text,
  withDefault,
} from '@movies-and-mail/http-kit/settings'
import * as z from 'zod/mini'

export type Settings = ServiceSettings & {
  /** Set when the items live in MongoDB instead of the embedded store. */
  connectionUrl: string | undefined
  dbName: string
  collectionName: string
  /** The `x-apikey` writes need; writes are open when unset. */
  apiKey: string | undefined
  /** The OpenID issuer whose users' tokens writes take, when set (`users/`). */
  users: IssuerSettings | undefined
  /** How long start-up waits for the database. */
  connectTimeoutMs: number
  /** Where the page sends mail: an absolute URL, or a path on the page's own origin. */
  mailServiceUrl: string
  /** How much the collection may hold: creates past it answer 507. */
  bounds: { maxItems: number; maxBytes: number }
  /** The change feed's streams: their bounds, and how often a quiet one gets a comment. */
  events: {
    maxStreams: number
    maxStreamsPerClient: number
    idleCloseMs: number
    heartbeatMs: number
    clientAddressHeader: string | undefined
  }
}

/** Whose tokens a write takes: one OpenID issuer, the audience its tokens name, its keys. */
export type IssuerSettings = {
  /** ITEMS_JWT_ISSUER: the tokens' `iss`, exactly; discovery starts from it. */
  issuer: string
  /** ITEMS_JWT_AUDIENCE: what the tokens' `aud` must hold. */
  audience: string
  /** ITEMS_JWKS_URL: the key set, where the discovery document would not say. */
  jwksUrl: string | undefined
  /** ITEMS_OIDC_CLIENT_ID: the web page signs users in as this client; no sign-in without. */
  clientId?: string | undefined
}

/** The issuer's settings: none, or an issuer with its audience (each needs the other). */
function issuerOf(env: {
  ITEMS_JWT_ISSUER?: string | undefined
  ITEMS_JWT_AUDIENCE?: string | undefined
  ITEMS_JWKS_URL?: string | undefined
  ITEMS_OIDC_CLIENT_ID?: string | undefined
}): IssuerSettings | undefined {
  const { ITEMS_JWT_ISSUER: issuer, ITEMS_JWT_AUDIENCE: audience } = env
  const missing = (name: string, other: string) => `${name}: must be set with ${other}`
  if (issuer === undefined && audience === undefined) {
    for (const name of ['ITEMS_JWKS_URL', 'ITEMS_OIDC_CLIENT_ID'] as const) {
      if (env[name] !== undefined) throw new SettingsError([missing('ITEMS_JWT_ISSUER', name)])
    }
    return undefined
  }
  if (issuer === undefined) {
    throw new SettingsError([missing('ITEMS_JWT_ISSUER', 'ITEMS_JWT_AUDIENCE')])
  }
  if (audience === undefined) {
    throw new SettingsError([missing('ITEMS_JWT_AUDIENCE', 'ITEMS_JWT_ISSUER')])
  }
  return { issuer, audience, jwksUrl: env.ITEMS_JWKS_URL, clientId: env.ITEMS_OIDC_CLIENT_ID }
}

/**
 * Every setting items-service reads: `parseEnv` reads them once from an environment-like record
 * (blank counts as unset) and throws a `SettingsError` naming every bad one, with no key's value
 * and no URL's password in it; `secretValues` are the secrets an environment holds, for redacting
 * what libraries write at start, whether or not it parses.
 */
export const {
  parse: parseEnv,
  secrets: secretValues,
  names: settingNames,
} = defineSettings(
  {
    CONNECTION_URL: optional(
      text().check(
        z.refine((url: string) => /^mongodb(\+srv)?:\/\//.test(url), {
          error: 'must start with mongodb:// or mongodb+srv://',
        }),
      ),
    ),
    DB_NAME: withDefault(text(), 'data'),
    COLLECTION_NAME: withDefault(text(), 'movies'),
    ITEMS_APIKEY: optional(apiKey()),
    // The issuer's URL is compared with the tokens' `iss` exactly, as written.
    ITEMS_JWT_ISSUER: optional(httpUrl()),
    ITEMS_JWT_AUDIENCE: optional(text()),
    ITEMS_JWKS_URL: optional(httpUrl()),
    ITEMS_OIDC_CLIENT_ID: optional(text()),
    CONNECT_TIMEOUT_MS: withDefault(milliseconds({ max: 600_000 }), 10_000),
    // A space serves the mail micro at /mail, on the page's own origin.
    MAIL_SERVICE_URL: withDefault(httpUrl({ orPath: true }), 'http://localhost:4001'),
    // Generous for a movie list (about 200 bytes a movie), and what a write answers stays sane.
    ITEMS_MAX_COUNT: withDefault(count({ max: 100_000_000 }), 100_000),
    ITEMS_MAX_BYTES: withDefault(count({ max: 2 ** 40 }), 32 * 1024 * 1024),
    EVENTS_MAX_STREAMS: withDefault(count({ max: 1_000_000 }), 10_000),
    EVENTS_MAX_STREAMS_PER_CLIENT: withDefault(count({ max: 1_000_000 }), 20),
    EVENTS_IDLE_CLOSE_MS: withDefault(milliseconds({ max: 86_400_000 }), 600_000),
    EVENTS_HEARTBEAT_MS: withDefault(milliseconds({ max: 600_000 }), 15_000),
    // Behind a proxy: the header it sets to the client's address (x-forwarded-for, x-real-ip).
    CLIENT_IP_HEADER: optional(
      z
        .pipe(
          text(),
          z.transform((name: string) => name.toLowerCase()),
        )
        .check(
          z.refine((name: string) => /^[a-z0-9-]+$/.test(name), { error: 'must be a header name' }),
        ),
    ),
    ...serviceSettings({ port: 4000 }),
  },
  {
    keys: ['ITEMS_APIKEY'],
    toSettings: (env): Settings => ({
      ...serviceSettingsOf(env),
      connectionUrl: env.CONNECTION_URL,
      dbName: env.DB_NAME,
      collectionName: env.COLLECTION_NAME,
      apiKey: env.ITEMS_APIKEY,
      users: issuerOf(env),
      connectTimeoutMs: env.CONNECT_TIMEOUT_MS,
      mailServiceUrl: env.MAIL_SERVICE_URL,
      bounds: { maxItems: env.ITEMS_MAX_COUNT, maxBytes: env.ITEMS_MAX_BYTES },
      events: {
        maxStreams: env.EVENTS_MAX_STREAMS,
        maxStreamsPerClient: env.EVENTS_MAX_STREAMS_PER_CLIENT,
        idleCloseMs: env.EVENTS_IDLE_CLOSE_MS,
        heartbeatMs: env.EVENTS_HEARTBEAT_MS,
        clientAddressHeader: env.CLIENT_IP_HEADER,
      },
    }),
  },
)
