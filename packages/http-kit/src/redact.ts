/** What stands in for a secret in every line the service prints. */
const hidden = '***'

// A scheme, then everything up to the last `@` before a space or a quote: a password may hold
// an unescaped `@` or `/`, and cutting at the first one would print the rest of it.
const userinfoInUrl = /\b([a-z][a-z\d+.-]*:\/\/)([^\s"'`<>]*)@/gi

/**
 * An option whose name says it holds a secret (`tlsCertificateKeyFilePassword`, `api_key`); one
 * that names a file (`tlsCertificateKeyFile`) holds a path, which an error must be able to show.
 */
const secretName =
  /^(?!.*(?:file|path)$).*(?:secret|passw|pass$|passphrase|pwd|token|key|credential|authMechanismProperties)/i
// A value ends at a space, a quote, `&` or `#`; closing brackets and punctuation right before
// that end belong to the text around it: `(database at mongodb://h/?password=pw)`.
const value = (stop: string) => String.raw`(?<secret>[^${stop}]*?)(?=[).,;\]}]*(?:[${stop}]|$))`
const secretOptions = [
  // name=value, in a query string or a message: the value runs to the next option.
  String.raw`(?<![\w.-])(?<option>[a-z_][\w.-]*)=${value(String.raw`\s"'\x60<>&#`)}`,
  // NAME:value without a space (authMechanismProperties=AWS_SESSION_TOKEN:…); a name with a dot
  // is a file's (`api-key.ts:12:5` in a stack).
  String.raw`(?<![\w.-])(?<option>[a-z_][\w-]*):${value(String.raw`\s"'\x60<>&#,`)}`,
  // "name": "value" or name: 'value', as JSON and util.inspect print options.
  String.raw`(["']?)(?<option>[a-z_][\w.-]*)\1\s*:\s*["'](?<secret>(?:[^"'\\]|\\.)*)(?=["'])`,
].map((pattern) => new RegExp(pattern, 'gi'))

function redactUserinfo(userinfo: string): string {
  const colon = userinfo.indexOf(':')
  const user = colon > 0 ? userinfo.slice(0, colon) : ''
  // Without a password the userinfo is a token; a user part with `@` or `/` is not a name.
  return user && !/[@/]/.test(user) ? `${user}:${hidden}` : hidden
}

/** The secret of a secret option's match, which ends each, as `***`. */
function redactOption(whole: string, ...rest: unknown[]): string {
  const { option = '', secret = '' } = rest.at(-1) as Record<string, string | undefined>
  return secretName.test(option) && secret ? `${whole.slice(0, -secret.length)}${hidden}` : whole
}

/** The userinfo of every URL in `text`, and the value of every secret option, as `***`. */
function redactPatterns(text: string): string {
  const withoutUserinfo = text.replace(
    userinfoInUrl,
    (_, scheme: string, info: string) => `${scheme}${redactUserinfo(info)}@`,
  )
  return secretOptions.reduce(
    (redacted, form) => redacted.replace(form, redactOption),
    withoutUserinfo,
  )
}

function replaceSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text
  // The longest first: a secret that holds another is replaced whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret) redacted = redacted.replace(wholeValue(secret), hidden)
  }
  return redacted
}

/**
 * Where `secret` stands as a value of its own, not as a part of a longer word: a key that
 * happens to be a word (`mail`) must not mask `mailgun`.
 */
function wholeValue(secret: string): RegExp {
  const escaped = secret.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu')
}

/**
 * `url` with the password of its userinfo replaced by `***` (the whole userinfo when it is a
 * single token) and so the value of every query option whose name says secret, password, token,
 * key or credential, and of `authMechanismProperties`; the scheme, user name, host and the other
 * options stay, so the reader can tell which server was meant. Works on text that is not a valid
 * URL too (a bad setting).
 * @example redactUrl('mongodb://ada:s3cret@db:27017/films?tlsCertificateKeyFilePassword=k&w=1') // 'mongodb://ada:***@db:27017/films?tlsCertificateKeyFilePassword=***&w=1'
 */
export function redactUrl(url: string): string {
  return redactText(url, secretsOfUrl(url))
}

/**
 * `text` (an error message, a stack) with the userinfo of every URL in it and the value of
 * every secret option (`name=value`, `NAME:value`, `"name": "value"`) redacted, and every one
 * of `secrets` replaced by `***`, for secrets that a library may print on its own.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  return replaceSecrets(redactPatterns(text), secrets)
}

/** `text` as written, percent-decoded, and decoded as a form (`+` a space), once each. */
function spellings(text: string): string[] {
  const decoded = (raw: string) => {
    try {
      return decodeURIComponent(raw)
    } catch {
      return raw
    }
  }
  return [...new Set([text, decoded(text), decoded(text.replaceAll('+', ' '))])]
}

/** The values of the secret options in the query of `url`, and of the secret properties in them. */
function secretsOfQuery(url: string): string[] {
  // From the first `?`, which may be in a password: a name taken too wide only adds secrets.
  const query = url.split('?').slice(1).join('?')
  return query.split(/[&;]/).flatMap((option) => {
    const equals = option.indexOf('=')
    const value = option.slice(equals + 1).split('#', 1)[0] ?? ''
    if (equals < 1 || !value || !secretName.test(option.slice(0, equals))) return []
    // authMechanismProperties=AWS_SESSION_TOKEN:…,SERVICE_NAME:mongodb: the driver may print a
    // property alone, and only the secret ones are worth finding (`mongodb` is not).
    const properties = spellings(value).flatMap((text) =>
      text.split(',').flatMap((pair) => {
        const [property = '', ...rest] = pair.split(':')
        return secretName.test(property) && rest.length > 0 ? spellings(rest.join(':')) : []
      }),
    )
    return [...spellings(value), ...properties]
  })
}

/**
 * The secrets a URL carries, as written and decoded, for `redactText`: the password of its
 * userinfo (or the token that is its userinfo) and the values of its secret query options.
 * @example secretsOfUrl('mongodb://ada:p%40ss@db/?authMechanismProperties=AWS_SESSION_TOKEN:t1') // ['p%40ss', 'p@ss', 'AWS_SESSION_TOKEN:t1', 't1']
 */
export function secretsOfUrl(url: string): string[] {
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(url)) return []
  const authority = url.match(/^[a-z][a-z\d+.-]*:\/\/(.*)@/is)?.[1] ?? ''
  const colon = authority.indexOf(':')
  const password = colon >= 0 ? authority.slice(colon + 1) : authority
  const all = [...(password ? spellings(password) : []), ...secretsOfQuery(url)]
  return [...new Set(all)].filter(Boolean)
}

/**
 * How an error line shows a setting's value: a key's not at all, any other with the secrets of
 * a URL in it redacted.
 * @example shownValue('postgres://ada:pw@db/films', false) // '="postgres://ada:***@db/films"'
 */
export function shownValue(value: string | undefined, isKey: boolean): string {
  if (isKey) return ' (value not shown)'
  return `=${JSON.stringify(value === undefined ? value : redactUrl(value))}`
}

/**
 * The secrets an environment holds, for redacting what libraries print: the whole value of
 * each setting in `keys` (and each item of a comma list), and the secrets of URLs in the
 * other settings of `names`.
 */
export function secretsOfEnv(
  raw: Record<string, string | undefined>,
  names: readonly string[],
  keys: ReadonlySet<string>,
): string[] {
  return names.flatMap((name) => {
    const value = raw[name]?.trim() ?? ''
    if (!keys.has(name)) return secretsOfUrl(value)
    return [value, ...value.split(',').map((key) => key.trim())].filter(
      (key, index, all) => key && all.indexOf(key) === index,
    )
  })
}
