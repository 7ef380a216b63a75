/**
 * The codes of a failed connection that never carried a request: refused, no such host, no
 * route, a connect that timed out, a port or a certificate the client refused. Node's fetch
 * names them in its error's `cause.code`.
 */
const unsentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
])

/** A certificate or TLS handshake refused: the request would have followed the handshake. */
const tlsRefused = /CERT|SSL|TLS|SIGNATURE|ISSUER/

/**
 * What the Workers runtime says of a connection it never made (it names no code), and what
 * fetch says of a request it refused to make (a bad port, a URL with a user and password).
 */
const unsentMessages =
  /connection refused|connect\(\)|dns|lookup|getaddrinfo|bad port|invalid url|cannot be constructed/i

/**
 * Whether a fetch that failed before any response surely sent nothing: its connection was never
 * made. Anything else (a connection reset or closed once the request may have been written:
 * ECONNRESET, "other side closed", "socket hang up", the runtime's "Network connection lost",
 * or a failure this does not know) leaves the outcome unknown: the provider may have taken
 * the message.
 */
export function surelyUnsent(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const cause: unknown = error.cause
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined
  if (typeof code === 'string') return unsentCodes.has(code) || tlsRefused.test(code)
  const message = cause instanceof Error ? cause.message : error.message
  return unsentMessages.test(message)
}
