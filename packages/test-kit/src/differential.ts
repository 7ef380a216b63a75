import { RawConnection, type RawResponse } from './raw-connection.js'

/**
 * A request of a differential corpus, as bytes on a connection of its own. `partial`: its body
 * is not all sent (the connection cannot carry another request). `goAwayAfterMs`: the client
 * goes away that long after sending, instead of waiting for the answer. `notUnderWranglerDev`:
 * why the case is not sent there.
 */
export type WireCase = {
  what: string
  request: Buffer
  head?: boolean
  partial?: true
  goAwayAfterMs?: number
  notUnderWranglerDev?: string
}

/**
 * wrangler dev itself (its proxy, in Node) exits when a client goes away mid-body, whatever the
 * Worker does, a bare one included: cloudflare/workers-sdk#15203. workerd, under Miniflare,
 * takes it.
 */
export const wranglerExitsOnCutBodies = 'wrangler dev exits on a body cut off (workers-sdk#15203)'

/** The headers two runtimes must agree on; the rest (dates, ids, connection) may differ. */
const comparedHeaders = ['content-type', 'allow', 'location', 'access-control-allow-methods']

/** An answer as a client reads it, for comparing runtimes: `volatile` fields of JSON masked. */
export type SeenResponse = { status: number; body: unknown; [header: string]: unknown }

/**
 * What a client sees of `answer`: status, the compared headers and the body, JSON parsed with
 * the values of the `volatile` field names (ids a store makes) replaced by `<name>`.
 */
export function seen(answer: RawResponse | null, volatile: readonly string[]): SeenResponse | null {
  if (!answer) return null
  const { status, headers, body } = answer
  const text = body.toString('utf8')
  const json = headers['content-type']?.startsWith('application/json') && text !== ''
  const mask = (key: string, value: unknown) => (volatile.includes(key) ? `<${key}>` : value)
  const shown = comparedHeaders.filter((name) => headers[name] !== undefined)
  return {
    status,
    body: json ? JSON.parse(text, mask) : text,
    ...Object.fromEntries(shown.map((name) => [name, maskedHeader(name, headers[name])])),
  }
}

/** A `Location` that names a record the store made: its id differs between runtimes. */
function maskedHeader(name: string, value: unknown): unknown {
  if (name !== 'location' || typeof value !== 'string') return value
  return value.replace(/\/[0-9a-f]{24}$/, '/<_id>')
}

/**
 * Sends `wireCase` to `url` on a connection of its own, then `followUp` (a valid request): on
 * the same connection when it can carry one (it was not cut, and the answer did not close it),
 * else on a new one, as an HTTP client does. Answers what the client saw of each.
 */
export async function exchange(
  url: string,
  wireCase: WireCase,
  followUp: Buffer,
  volatile: readonly string[],
): Promise<{ answer: SeenResponse | null; followUp: SeenResponse | null }> {
  const connection = await RawConnection.open(url)
  await connection.send(wireCase.request)
  let answer: RawResponse | null = null
  if (wireCase.goAwayAfterMs !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, wireCase.goAwayAfterMs))
    connection.destroy()
  } else {
    answer = await connection.answer({ head: wireCase.head === true })
  }
  const reusable = !wireCase.partial && !connection.closed && answer?.headers.connection !== 'close'
  const next = reusable ? connection : await RawConnection.open(url)
  await next.send(followUp)
  const after = await next.answer()
  connection.destroy()
  next.destroy()
  return { answer: seen(answer, volatile), followUp: seen(after, volatile) }
}
