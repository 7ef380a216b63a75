// zod's functional API (`zod/mini`), as every check of both micros: the same checks and messages
// as its full API (English: `english-messages.ts`), without the methods every schema of that API
// carries; a Worker that parses its settings to answer its page evaluates no more than these.
import * as z from 'zod/mini'
import './english-messages.js'
import { secretsOfEnv, shownValue } from './redact.js'

/** An environment as the runtime gives it: the Node process's, or a Worker's string bindings. */
export type RawEnv = Readonly<Record<string, string | undefined>>

/** A start-up failure naming every bad setting, one line each, for a readable exit. */
export class SettingsError extends Error {
  override name = 'SettingsError'
  readonly problems: readonly string[]

  constructor(problems: readonly string[]) {
    super(`invalid settings:\n${problems.map((problem) => `  ${problem}`).join('\n')}`)
    this.problems = problems
  }
}

/**
 * What a Worker answers (503) while its settings, or what they name, cannot be used: the log
 * says which, a client is told no more.
 */
export const misconfiguredMessage = 'the service is misconfigured; its log says which setting'

/** One message for every way a check fails, and no further check runs on the value. */
const failing = (message: string) => ({ error: message, abort: true })

function wholeNumber(min: number, max: number, message: string) {
  return z.coerce
    .number(failing(message))
    .check(
      z.refine(
        (value: number) => Number.isInteger(value) && value >= min && value <= max,
        failing(message),
      ),
    )
}

/** A non-blank string, trimmed. */
export function text() {
  return z
    .string(failing('must be text'))
    .check(z.trim(), z.minLength(1, failing('must not be blank')))
}

/**
 * The fewest characters an API key may have. A key must not be guessable: 16 is past the 15
 * NIST asks of a password that is the only factor (SP 800-63B-4), and 16 random characters hold
 * far more than the 64 bits OWASP asks of a session id.
 */
export const minKeyLength = 16

/** Whether `key` has fewer than `minKeyLength` characters (code points, as a person counts). */
export const isTooShortKey = (key: string): boolean => [...key].length < minKeyLength

/** What a setting is told whose key is too short; the key itself is never shown. */
export const tooShortKeyMessage = `must be at least ${minKeyLength} characters long, so that it cannot be guessed`

/** An API key a client sends: text of at least `minKeyLength` characters. */
export function apiKey() {
  return text().check(z.refine((key: string) => !isTooShortKey(key), failing(tooShortKeyMessage)))
}

/** A TCP port; 0 asks the system for a free one. */
export function port() {
  return wholeNumber(0, 65_535, 'must be a whole number from 0 to 65535')
}

/** A whole number from `min` to `max`: a count, a size; `message` says what it counts. */
export function count({
  min = 1,
  max,
  message = `must be a whole number from ${min} to ${max}`,
}: {
  min?: number
  max: number
  message?: string
}) {
  return wholeNumber(min, max, message)
}

/** A duration in whole milliseconds, above 0 and at most `max` when given. */
export function milliseconds({ max }: { max?: number } = {}) {
  const range = max === undefined ? 'above 0' : `from 1 to ${max}`
  return wholeNumber(
    1,
    max ?? Number.MAX_SAFE_INTEGER,
    `must be a whole number of milliseconds ${range}`,
  )
}

/** The setting as `schema` reads it, or `value` when it is unset. */
export const withDefault = z._default

/** The setting as `schema` reads it, or undefined when it is unset. */
export const optional = z.optional

/** One of `values`, as written. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, failing(`must be one of ${values.join(', ')}`))
}

/** A comma list, each item trimmed, empty items dropped: `' a, b ,,'` is `['a', 'b']`. */
export function commaList() {
  return z.pipe(
    z.string(failing('must be text')),
    z.transform((list: string) =>
      list
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  )
}

/** An origin a browser sends: http(s), a host, perhaps a port, and nothing after. */
function originOf(value: string): string | undefined {
  if (!/^https?:\/\/[^/\s?#@]+$/i.test(value)) return undefined
  try {
    return new URL(value).origin
  } catch {
    return undefined
  }
}

/**
 * `*` (any origin) or a comma list of origins such as `https://app.example:8443`, each written
 * as a browser sends it (lower case, no default port), so that an exact match finds it.
 */
export function origins() {
  const listed = commaList().check(
    z.refine(
      (list: string[]) =>
        list.length > 0 && list.every((origin) => origin === '*' || originOf(origin)),
      failing('must be * or a comma list of origins like https://app.example.com'),
    ),
  )
  return z.pipe(
    listed,
    z.transform((list: string[]) =>
      list.map((origin) => (origin === '*' ? origin : (originOf(origin) ?? ''))),
    ),
  )
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== ''
  } catch {
    return false
  }
}

/**
 * An absolute http(s) URL, kept as written; with `orPath`, a path on the same origin too
 * (`/mail`, but not `//host`, which a browser reads as another host).
 */
export function httpUrl({ orPath = false }: { orPath?: boolean } = {}) {
  const message = `must be an http(s) URL${orPath ? ' or a path starting with /' : ''}`
  return text().check(
    z.refine(
      (url: string) => (orPath && /^\/(?!\/)/.test(url)) || isHttpUrl(url),
      failing(message),
    ),
  )
}

/** Reads one service's settings; see `defineSettings`. */
export type SettingsReader<Settings> = {
  /** Every environment name the service reads. */
  readonly names: readonly string[]
  /** @throws SettingsError naming every bad setting; a key's value never appears in it. */
  parse(raw: RawEnv): Settings
  /** The secrets `raw` holds (keys, passwords in URLs), whether or not it parses. */
  secrets(raw: RawEnv): string[]
}

/**
 * One service's settings: a parser per environment name, the names whose whole value is a
 * secret (`keys`), and how the parsed values make the service's settings object. A blank value
 * counts as unset, so `PORT=` in a shell falls back to the default.
 * @example
 * const settings = defineSettings({ PORT: withDefault(port(), 4000) }, { toSettings: (env) => ({ port: env.PORT }) })
 * settings.parse({ PORT: 'abc' }) // throws 'invalid settings:\n  PORT="abc": must be a whole number from 0 to 65535'
 */
export function defineSettings<Shape extends z.core.$ZodShape, Settings>(
  shape: Shape,
  options: {
    keys?: readonly (keyof Shape & string)[]
    toSettings: (env: z.output<z.ZodMiniObject<Shape>>) => Settings
  },
): SettingsReader<Settings> {
  const schema = z.object(shape)
  const names = Object.keys(shape)
  const keys: ReadonlySet<string> = new Set(options.keys)
  return {
    names,
    secrets: (raw) => secretsOfEnv(raw, names, keys),
    parse(raw) {
      const present = Object.fromEntries(
        names.flatMap((name) => (raw[name]?.trim() ? [[name, raw[name]]] : [])),
      )
      const result = schema.safeParse(present)
      if (result.success) return options.toSettings(result.data as z.output<z.ZodMiniObject<Shape>>)
      const problems = new Map<string, string>()
      for (const { path, message } of result.error.issues) {
        const name = String(path[0])
        if (problems.has(name)) continue
        problems.set(name, `${name}${shownValue(present[name], keys.has(name))}: ${message}`)
      }
      throw new SettingsError([...problems.values()])
    },
  }
}
