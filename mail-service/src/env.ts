import {
  count,
  defineSettings,
  httpUrl,
  milliseconds,
  oneOf,
  optional,
  type ServiceSettings,
  SettingsError,
  serviceSettings,
  serviceSettingsOf,
  text,
  withDefault,
} from '@movies-and-mail/http-kit/settings'
import * as z from 'zod/mini'
import { adminKeysOf, keyList } from './api-keys/key-settings.js'
import { type RateLimit, rateLimitSetting } from './rate-limits/rate-limit.js'

const mailgunHosts = { us: 'https://api.mailgun.net', eu: 'https://api.eu.mailgun.net' } as const

const timeoutMs = milliseconds({ max: 600_000 })

/** Where and how mail is sent; `mailgun` carries the provider's secrets. */
export type Transport =
  | { kind: 'outbox' }
  | { kind: 'mailgun'; apiKey: string; domain: string; baseUrl: string }

export type Settings = ServiceSettings & {
  /** Accepted `x-apikey` values; empty when API_KEYS is unset. */
  apiKeys: string[]
  /** The keys of `apiKeys` that read every record of the mail log and the outbox. */
  adminApiKeys: string[]
  transport: Transport
  /** `timeoutMs`: the client's wait; `giveUpMs`: how long a slower send is still followed. */
  mail: { from: string; subject: string; text: string; timeoutMs: number; giveUpMs: number }
  /** Sends allowed per recipient address and per API key; null when off. */
  rateLimits: { perRecipient: RateLimit | null; perKey: RateLimit | null }
  /** How many days the mail log keeps a record. */
  mailLogRetentionDays: number
  /** MAILGUN_WEBHOOK_SIGNING_KEY: with it, `POST /webhooks/mailgun` files Mailgun's events. */
  webhookSigningKey?: string | undefined
  /** Set when the logs live in a Deta Base instead of the embedded store. */
  deta?: { projectKey: string; host: string }
  /**
   * Set when the idempotency keys and send counts (and, without a Deta Base, the logs) live in
   * MongoDB: `url` holds the password, if any.
   */
  mongo?: { url: string; dbName: string }
}

/**
 * Every setting mail-service reads: `parseEnv` reads them once from an environment-like record
 * (process.env or Worker bindings; blank counts as unset) and throws a `SettingsError` naming
 * every bad one, with no key's value and no URL's password in it; `secretValues` are the secrets
 * an environment holds, for redacting what libraries write at start, whether or not it parses.
 */
export const {
  parse: parseEnv,
  secrets: secretValues,
  names: settingNames,
} = defineSettings(
  {
    ...serviceSettings({ port: 4001 }),
    API_KEYS: keyList(),
    ADMIN_API_KEYS: keyList(),
    MAIL_APIKEY: optional(
      text().check(
        z.refine(
          (key: string) => /^[\x21-\x7e]+$/.test(key),
          'must be printable ASCII without spaces',
        ),
      ),
    ),
    MAIL_DOMAIN: optional(
      text().check(
        z.refine(
          (domain: string) => /^[a-z0-9.-]+$/i.test(domain),
          'must be a domain name such as mg.example.com',
        ),
      ),
    ),
    MAIL_REGION: withDefault(oneOf(['us', 'eu']), 'us'),
    MAIL_API_URL: optional(
      z.pipe(
        httpUrl().check(
          // fetch refuses a URL with credentials, and Mailgun's key goes in MAIL_APIKEY anyway.
          z.refine((url: string) => {
            const { username, password } = new URL(url)
            return !username && !password
          }, 'must not hold a user or password'),
        ),
        z.transform((url: string) => url.replace(/\/+$/, '')),
      ),
    ),
    MAILGUN_WEBHOOK_SIGNING_KEY: optional(
      text().check(
        z.refine(
          (key: string) => /^[\x21-\x7e]+$/.test(key),
          'must be printable ASCII without spaces',
        ),
      ),
    ),
    MAIL_FROM: optional(text()),
    MAIL_SUBJECT: withDefault(z.string(), 'Hello from the movies app'),
    MAIL_TEXT: withDefault(z.string(), 'Hello {name},\n\nthank you for getting in touch.'),
    MAIL_TIMEOUT_MS: withDefault(timeoutMs, 10_000),
    MAIL_GIVE_UP_MS: withDefault(timeoutMs, 30_000),
    RATE_LIMIT_PER_RECIPIENT: withDefault(rateLimitSetting(), { count: 3, windowMs: 3_600_000 }),
    RATE_LIMIT_PER_KEY: withDefault(rateLimitSetting(), { count: 60, windowMs: 60_000 }),
    MAILLOG_RETENTION_DAYS: withDefault(
      count({ max: 36_500, message: 'must be a whole number of days from 1 to 36500' }),
      90,
    ),
    MAIL_TRANSPORT: optional(oneOf(['mailgun', 'outbox'])),
    DETA_PROJECT_KEY: optional(
      text().check(
        z.refine(
          (key: string) => /^[^\s_]+_\S+$/.test(key),
          'must look like <project id>_<secret>',
        ),
      ),
    ),
    MAIL_CONNECTION_URL: optional(
      text().check(
        z.refine((url: string) => /^mongodb(\+srv)?:\/\//.test(url), {
          error: 'must start with mongodb:// or mongodb+srv://',
        }),
      ),
    ),
    MAIL_DB_NAME: withDefault(
      text().check(
        z.refine((name: string) => /^[^/\\. "$\p{Cc}]{1,63}$/u.test(name), {
          error: 'must be a MongoDB database name: 1-63 characters without /\\. "$ or spaces',
        }),
      ),
      'data',
    ),
    DETA_BASE_HOST: optional(
      text().check(
        z.refine(
          (host: string) => /^[a-z0-9.-]+(:\d{1,5})?$/i.test(host),
          'must be a host name with an optional port, without https:// or a path',
        ),
      ),
    ),
  },
  {
    keys: [
      'API_KEYS',
      'ADMIN_API_KEYS',
      'MAIL_APIKEY',
      'MAILGUN_WEBHOOK_SIGNING_KEY',
      'DETA_PROJECT_KEY',
    ],
    toSettings: (env): Settings => ({
      ...serviceSettingsOf(env),
      apiKeys: env.API_KEYS,
      adminApiKeys: adminKeysOf(env),
      transport: pickTransport(env),
      mail: {
        from: env.MAIL_FROM ?? `Movies <no-reply@${env.MAIL_DOMAIN ?? 'outbox.local'}>`,
        subject: env.MAIL_SUBJECT,
        text: env.MAIL_TEXT,
        timeoutMs: env.MAIL_TIMEOUT_MS,
        giveUpMs: giveUpAfter(env),
      },
      rateLimits: { perRecipient: env.RATE_LIMIT_PER_RECIPIENT, perKey: env.RATE_LIMIT_PER_KEY },
      mailLogRetentionDays: env.MAILLOG_RETENTION_DAYS,
      webhookSigningKey: env.MAILGUN_WEBHOOK_SIGNING_KEY,
      deta: env.DETA_PROJECT_KEY
        ? { projectKey: env.DETA_PROJECT_KEY, host: env.DETA_BASE_HOST ?? 'database.deta.sh' }
        : undefined,
      mongo: env.MAIL_CONNECTION_URL
        ? { url: env.MAIL_CONNECTION_URL, dbName: env.MAIL_DB_NAME }
        : undefined,
    }),
  },
)

/** A send that outlives the client's wait is followed for at least as long again. */
function giveUpAfter(env: { MAIL_TIMEOUT_MS: number; MAIL_GIVE_UP_MS: number }): number {
  if (env.MAIL_GIVE_UP_MS >= env.MAIL_TIMEOUT_MS) return env.MAIL_GIVE_UP_MS
  throw new SettingsError([
    `MAIL_GIVE_UP_MS="${env.MAIL_GIVE_UP_MS}": must be at least MAIL_TIMEOUT_MS (${env.MAIL_TIMEOUT_MS})`,
  ])
}

/** The parsed settings that choose the transport. */
type TransportEnv = {
  MAIL_TRANSPORT?: Transport['kind'] | undefined
  MAIL_APIKEY?: string | undefined
  MAIL_DOMAIN?: string | undefined
  MAIL_API_URL?: string | undefined
  MAIL_REGION: keyof typeof mailgunHosts
}

function pickTransport(env: TransportEnv): Transport {
  const kind = env.MAIL_TRANSPORT ?? (env.MAIL_APIKEY ? 'mailgun' : 'outbox')
  if (kind === 'outbox') return { kind }
  if (!env.MAIL_APIKEY || !env.MAIL_DOMAIN) {
    const missing = (['MAIL_APIKEY', 'MAIL_DOMAIN'] as const).filter((name) => !env[name])
    throw new SettingsError([
      `MAIL_TRANSPORT=mailgun needs ${missing.join(' and ')}; ` +
        'set them, or MAIL_TRANSPORT=outbox to keep mail local',
    ])
  }
  return {
    kind,
    apiKey: env.MAIL_APIKEY,
    domain: env.MAIL_DOMAIN,
    baseUrl: env.MAIL_API_URL ?? mailgunHosts[env.MAIL_REGION],
  }
}
