/** What stands in for a secret in every line the service prints. */
const hidden = '***'

// A scheme, then everything up to the last `@` before a space or a quote: a password may hold
// an unescaped `@` or `/`, and cutting at the first one would print the rest of it.
const userinfoInUrl = /\b([a-z][a-z\d+.-]*:\/\/)([^\s"'`<>]*)@/gi

function redactUserinfo(userinfo: string): string {
  const colon = userinfo.indexOf(':')
  const user = colon > 0 ? userinfo.slice(0, colon) : ''
  // Without a password the userinfo is a token; a user part with `@` or `/` is not a name.
  return user && !/[@/]/.test(user) ? `${user}:${hidden}` : hidden
}

/**
 * `url` with the password of its userinfo replaced by `***`, or the whole userinfo when it is
 * a single token; the scheme, user name and host stay, so the reader can tell which server
 * was meant. Works on text that is not a valid URL too (a bad setting).
 * @example redactUrl('mongodb://ada:s3cret@db.example:27017/films') // 'mongodb://ada:***@db.example:27017/films'
 */
export function redactUrl(url: string): string {
  return replaceSecrets(redactUserinfos(url), secretsOfUrl(url))
}

function redactUserinfos(text: string): string {
  return text.replace(
    userinfoInUrl,
    (_, scheme: string, userinfo: string) => `${scheme}${redactUserinfo(userinfo)}@`,
  )
}

function replaceSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text
  for (const secret of secrets) {
    if (secret) redacted = redacted.replaceAll(secret, hidden)
  }
  return redacted
}

/**
 * `text` (an error message, a stack) with the userinfo of every URL in it redacted and every
 * one of `secrets` replaced by `***`, for secrets that a library may print on its own.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  return replaceSecrets(redactUserinfos(text), secrets)
}

/**
 * The secrets a URL carries in its userinfo, as written and percent-decoded, for `redactText`.
 * @example secretsOfUrl('mongodb://ada:p%40ss@db/') // ['p%40ss', 'p@ss']
 */
export function secretsOfUrl(url: string): string[] {
  const authority = url.match(/^[a-z][a-z\d+.-]*:\/\/(.*)@/is)?.[1]
  if (!authority) return []
  const colon = authority.indexOf(':')
  const secret = colon >= 0 ? authority.slice(colon + 1) : authority
  if (!secret) return []
  try {
    const decoded = decodeURIComponent(secret)
    return decoded === secret ? [secret] : [secret, decoded]
  } catch {
    return [secret]
  }
}

/**
 * How an error line shows a setting's value: a key's not at all, any other with the password
 * of a URL in it redacted.
 * @example shownValue('postgres://ada:pw@db/films', false) // '="postgres://ada:***@db/films"'
 */
export function shownValue(value: string | undefined, isKey: boolean): string {
  if (isKey) return ' (value not shown)'
  return `=${JSON.stringify(value === undefined ? value : redactUrl(value))}`
}

/**
 * The secrets an environment holds, for redacting what libraries print: the whole value of
 * each setting in `keys` (and each item of a comma list), and the passwords of URLs in the
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
