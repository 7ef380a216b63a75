/** A `fetch`: the global one, a wrapper of it, or an in-process app's `request`. */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>

/** What `new Headers(...)` takes: an object, a `Headers`, or `[name, value]` pairs. */
export type HeadersInput = ConstructorParameters<typeof Headers>[0]

/**
 * The headers of one request: the client's, then the call's over them (a name given in both
 * takes the call's value). The client sets its own (`x-apikey`, `content-type`,
 * `idempotency-key`) on what this returns.
 */
export function requestHeaders(
  clientHeaders: HeadersInput | undefined,
  callHeaders: HeadersInput | undefined,
): Headers {
  const headers = new Headers(clientHeaders)
  for (const [name, value] of new Headers(callHeaders)) headers.set(name, value)
  return headers
}
