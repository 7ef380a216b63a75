import { secretsOfEnv, shownValue } from '@movies-and-mail/http-kit'
import { z } from 'zod'

const mailgunHosts = { us: 'https://api.mailgun.net', eu: 'https://api.eu.mailgun.net' } as const

const optionalText = z.string().trim().optional()
const positiveMs = z.coerce.number().int().positive().max(600_000)
const noSpaceOrControl = /^[^\s\p{Cc}]+$/u

const settingsSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(4001),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  API_KEYS: z
    .string()
    .optional()
    .transform((list) =>
      (list ?? '')
        .split(',')
        .map((key) => key.trim())
        .filter(Boolean),
    )
    .refine((keys) => keys.every((key) => noSpaceOrControl.test(key)), 'keys may not hold spaces'),
  MAIL_APIKEY: optionalText.refine(
    (key) => key === undefined || /^[\x21-\x7e]+$/.test(key),
    'must be printable ASCII without spaces',
  ),
  MAIL_DOMAIN: optionalText.refine(
    (domain) => domain === undefined || /^[a-z0-9.-]+$/i.test(domain),
    'must be a domain name such as mg.example.com',
  ),
  MAIL_REGION: z.enum(['us', 'eu']).default('us'),
  MAIL_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    // fetch refuses a URL with credentials, and Mailgun's key goes in MAIL_APIKEY anyway.
    .refine((url) => {
      const { username, password } = new URL(url)
      return !username && !password
    }, 'must not hold a user or password')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  MAIL_FROM: optionalText,
  MAIL_SUBJECT: z.string().default('Hello from the movies app'),
  MAIL_TEXT: z.string().default('Hello {name},\n\nthank you for getting in touch.'),
  MAIL_TIMEOUT_MS: positiveMs.default(10_000),
  SHUTDOWN_TIMEOUT_MS: positiveMs.default(10_000),
  MAIL_TRANSPORT: z.enum(['mailgun', 'outbox']).optional(),
  DETA_PROJECT_KEY: optionalText.refine(
    (key) => key === undefined || /^[^\s_]+_\S+$/.test(key),
    'must look like <project id>_<secret>',
  ),
  DETA_BASE_HOST: optionalText.refine(
    (host) => host === undefined || /^[a-z0-9.-]+(:\d{1,5})?$/i.test(host),
    'must be a host name with an optional port, without https:// or a path',
  ),
  DATA_DIR: z.string().trim().min(1).default('.data'),
  CORS_ORIGINS: z
    .string()
    .default('*')
    .transform((list) =>
      list
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .refine(
      (origins) =>
        origins.length > 0 &&
        origins.every((origin) => origin === '*' || /^https?:\/\/[^/\s]+$/.test(origin)),
      'must be * or a comma list of origins like https://app.example.com',
    ),
})

/** Every setting mail-service reads, by name. */
export const settingNames = Object.keys(settingsSchema.shape) as readonly string[]

/** Where and how mail is sent; `mailgun` carries the provider's secrets. */
export type Transport =
  | { kind: 'outbox' }
  | { kind: 'mailgun'; apiKey: string; domain: string; baseUrl: string }

export type Settings = {
  port: number
  host: string
  /** Accepted `x-apikey` values; empty when API_KEYS is unset. */
  apiKeys: string[]
  transport: Transport
  mail: { from: string; subject: string; text: string; timeoutMs: number }
  /** Set when the logs live in a Deta Base instead of the embedded store. */
  deta?: { projectKey: string; host: string }
  dataDir: string
  corsOrigins: string[]
  /** How long a stop waits for requests in flight before it closes their connections. */
  shutdownTimeoutMs: number
}

/** Settings whose whole value is a secret: an error names them but never shows the value. */
const keySettings: ReadonlySet<string> = new Set(['API_KEYS', 'MAIL_APIKEY', 'DETA_PROJECT_KEY'])

/**
 * The secrets an environment holds, keys and the passwords in URLs, for redacting messages
 * that libraries write (such as an error at start), whether or not the settings parse.
 */
export function secretValues(raw: Record<string, string | undefined>): string[] {
  return secretsOfEnv(raw, settingNames, keySettings)
}

/**
 * Reads the settings once from an environment-like record (process.env or Worker bindings).
 * Empty strings count as unset. Messages name the setting and show its value, except a key's,
 * with the password of any URL in it redacted.
 * @throws Error naming every bad setting, for a readable start-up failure.
 */
export function parseEnv(raw: Record<string, string | undefined>): Settings {
  const present = Object.fromEntries(
    settingNames.flatMap((name) => (raw[name]?.trim() ? [[name, raw[name]]] : [])),
  )
  const result = settingsSchema.safeParse(present)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = String(issue.path[0])
      const value = shownValue(present[name], keySettings.has(name))
      return `  ${issue.path.join('.')}${value}: ${issue.message}`
    })
    throw new Error(`invalid settings:\n${lines.join('\n')}`)
  }
  const env = result.data
  const domain = env.MAIL_DOMAIN
  return {
    port: env.PORT,
    host: env.HOST,
    apiKeys: env.API_KEYS,
    transport: pickTransport(env),
    mail: {
      from: env.MAIL_FROM ?? `Movies <no-reply@${domain ?? 'outbox.local'}>`,
      subject: env.MAIL_SUBJECT,
      text: env.MAIL_TEXT,
      timeoutMs: env.MAIL_TIMEOUT_MS,
    },
    deta: env.DETA_PROJECT_KEY
      ? { projectKey: env.DETA_PROJECT_KEY, host: env.DETA_BASE_HOST ?? 'database.deta.sh' }
      : undefined,
    dataDir: env.DATA_DIR,
    corsOrigins: env.CORS_ORIGINS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  }
}

function pickTransport(env: z.infer<typeof settingsSchema>): Transport {
  const kind = env.MAIL_TRANSPORT ?? (env.MAIL_APIKEY ? 'mailgun' : 'outbox')
  if (kind === 'outbox') return { kind }
  const missing = (['MAIL_APIKEY', 'MAIL_DOMAIN'] as const).filter((name) => !env[name])
  if (!env.MAIL_APIKEY || !env.MAIL_DOMAIN) {
    throw new Error(
      `invalid settings:\n  MAIL_TRANSPORT=mailgun needs ${missing.join(' and ')}; ` +
        'set them, or MAIL_TRANSPORT=outbox to keep mail local',
    )
  }
  return {
    kind,
    apiKey: env.MAIL_APIKEY,
    domain: env.MAIL_DOMAIN,
    baseUrl: env.MAIL_API_URL ?? mailgunHosts[env.MAIL_REGION],
  }
}
