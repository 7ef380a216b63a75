// zod's tree-shakable form: the settings are read at start-up, before the routes load, and
// leaving the full zod's chained API to the routes takes 15-30 ms off start-up here.

import { secretsOfEnv, shownValue } from '@movies-and-mail/http-kit'
import * as z from 'zod/mini'
import en from 'zod/v4/locales/en.js'

// The full zod sets its English messages itself; this form leaves that to its user.
z.config(en())

const trimmed = z.string().check(z.trim(), z.minLength(1))
const port = z.pipe(z.coerce.number(), z.int().check(z.minimum(0), z.maximum(65_535)))
const positiveMs = z.pipe(z.coerce.number(), z.int().check(z.positive()))
const optionalText = z.optional(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((value: string) => value || undefined),
  ),
)

const settingsSchema = z.object({
  PORT: z._default(port, 4000),
  HOST: z._default(trimmed, '0.0.0.0'),
  CONNECTION_URL: optionalText.check(
    z.refine(
      (url) => url === undefined || /^mongodb(\+srv)?:\/\//.test(url),
      'must start with mongodb:// or mongodb+srv://',
    ),
  ),
  DB_NAME: z._default(trimmed, 'data'),
  COLLECTION_NAME: z._default(trimmed, 'movies'),
  DATA_DIR: z._default(trimmed, '.data'),
  ITEMS_APIKEY: optionalText,
  CORS_ORIGINS: z.pipe(
    z._default(z.string(), '*'),
    z
      .transform((list: string) =>
        list
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .check(z.refine((origins) => origins.length > 0, 'must be * or a comma list of origins')),
  ),
  CONNECT_TIMEOUT_MS: z._default(positiveMs, 10_000),
  SHUTDOWN_TIMEOUT_MS: z._default(positiveMs, 10_000),
  // An absolute URL, or a path on the page's own origin (a space serves the mail micro at /mail).
  MAIL_SERVICE_URL: z._default(
    z.string().check(
      z.trim(),
      z.refine(
        (url) => /^\/(?!\/)/.test(url) || /^https?:\/\/./.test(url),
        'must be an http(s) URL or a path starting with /',
      ),
    ),
    'http://localhost:4001',
  ),
})

/** Every setting items-service reads, by name. */
export const settingNames = Object.keys(settingsSchema.shape) as readonly string[]

export type Settings = z.infer<typeof settingsSchema>

/** Settings whose whole value is a secret: an error names them but never shows the value. */
const keySettings: ReadonlySet<string> = new Set(['ITEMS_APIKEY'])

/**
 * The secrets an environment holds, keys and the passwords in URLs, for redacting messages
 * that libraries write (such as a driver's error at start), whether or not the settings parse.
 */
export function secretValues(raw: Record<string, string | undefined>): string[] {
  return secretsOfEnv(raw, settingNames, keySettings)
}

/**
 * Reads the settings once from an environment-like record.
 * Empty or blank strings count as unset, so `FOO=` in a shell falls back to the default
 * (and a stray `PORT=' '` does not become port 0).
 * @throws Error naming every bad setting, for a readable start-up failure; a URL's password
 *   and a key's value never appear in it.
 */
export function parseEnv(raw: Record<string, string | undefined>): Settings {
  const present = Object.fromEntries(
    settingNames.flatMap((name) => (raw[name]?.trim() ? [[name, raw[name]]] : [])),
  )
  const result = settingsSchema.safeParse(present)
  if (result.success) return result.data
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0])
    const value = shownValue(present[name], keySettings.has(name))
    return `  ${issue.path.join('.')}${value}: ${issue.message}`
  })
  throw new Error(`invalid settings:\n${lines.join('\n')}`)
}
