import { z } from 'zod'

const port = z.coerce.number().int().min(0).max(65_535)
const positiveMs = z.coerce.number().int().positive()
const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional()

const settingsSchema = z.object({
  PORT: port.default(4000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  CONNECTION_URL: optionalText.refine(
    (url) => url === undefined || /^mongodb(\+srv)?:\/\//.test(url),
    'must start with mongodb:// or mongodb+srv://',
  ),
  DB_NAME: z.string().trim().min(1).default('data'),
  COLLECTION_NAME: z.string().trim().min(1).default('movies'),
  DATA_DIR: z.string().trim().min(1).default('.data'),
  ITEMS_APIKEY: optionalText,
  CORS_ORIGINS: z
    .string()
    .default('*')
    .transform((list) =>
      list
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .refine((origins) => origins.length > 0, 'must be * or a comma list of origins'),
  CONNECT_TIMEOUT_MS: positiveMs.default(10_000),
  // An absolute URL, or a path on the page's own origin (a space serves the mail micro at /mail).
  MAIL_SERVICE_URL: z
    .string()
    .trim()
    .refine(
      (url) => /^\/(?!\/)/.test(url) || /^https?:\/\/./.test(url),
      'must be an http(s) URL or a path starting with /',
    )
    .default('http://localhost:4001'),
})

/** Every setting items-service reads, by name. */
export const settingNames = Object.keys(settingsSchema.shape) as readonly string[]

export type Settings = z.infer<typeof settingsSchema>

/**
 * Reads the settings once from an environment-like record.
 * Empty or blank strings count as unset, so `FOO=` in a shell falls back to the default
 * (and a stray `PORT=' '` does not become port 0).
 * @throws Error naming every bad setting, for a readable start-up failure.
 */
export function parseEnv(raw: Record<string, string | undefined>): Settings {
  const present = Object.fromEntries(
    settingNames.flatMap((name) => (raw[name]?.trim() ? [[name, raw[name]]] : [])),
  )
  const result = settingsSchema.safeParse(present)
  if (result.success) return result.data
  const lines = result.error.issues.map(
    (issue) =>
      `  ${issue.path.join('.')}=${JSON.stringify(present[String(issue.path[0])])}: ${issue.message}`,
  )
  throw new Error(`invalid settings:\n${lines.join('\n')}`)
}
