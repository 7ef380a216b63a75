/**
 * The wait before reconnect number `failures` of a row (1 for the first): `baseMs` doubled for
 * each failure before it, at most `maxMs`, and never shorter than what the service asked for
 * in `Retry-After`.
 */
export function reconnectDelayMs(
  failures: number,
  { baseMs, maxMs, retryAfterMs = 0 }: { baseMs: number; maxMs: number; retryAfterMs?: number },
): number {
  return Math.max(Math.min(baseMs * 2 ** Math.max(failures - 1, 0), maxMs), retryAfterMs)
}

/** An answer's `Retry-After` in seconds (a 503's), as milliseconds; 0 when it has none. */
export function retryAfterMs(response: Response): number {
  const header = response.headers.get('retry-after')?.trim() ?? ''
  return /^\d+$/.test(header) ? Number(header) * 1000 : 0
}
