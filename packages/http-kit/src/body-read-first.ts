import { joinedBytes } from './joined-bytes.js'

/**
 * For a Worker: the request with its body read to its end first, so that whatever answers it
 * (the app, or a Durable Object it is handed to) gets a body the platform no longer streams. An
 * answer given before a streamed body was read leaves it on the connection: workerd then drops
 * the connection, so the client's next request on it fails; a Durable Object that answers so
 * leaves the runtime reading a stream whose request has been answered ("Can't read from request
 * stream after response has been sent" under `wrangler dev`, a restarted Worker, the next
 * request answered 503 or never). Of the body, `maxBytes + 1` bytes at most are kept: the app's
 * own limit then answers 413 in the order it checks (a wrong key first), as on Node. The
 * platform bounds how much there is to read (100 MB and more).
 * @returns the request to send on, or null when its body broke off (the client went away)
 */
export async function withBodyReadFirst(
  request: Request,
  maxBytes: number,
): Promise<Request | null> {
  if (request.body === null) return request
  // A GET or HEAD cannot carry a body on; what it sent is read, and no route reads it.
  const bodiless = request.method === 'GET' || request.method === 'HEAD'
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (!bodiless && declared <= maxBytes) {
    // Within the limit by its length, which the runtime holds the body to: read in one call.
    try {
      return passedOn(request, await request.arrayBuffer())
    } catch {
      return null
    }
  }
  // The chunks as they come, then one copy of their bytes: not a buffer of the limit's size for
  // every request.
  const kept: Uint8Array[] = []
  let length = 0
  const reader = request.body.getReader()
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const room = maxBytes + 1 - length
      if (room === 0) continue
      const chunk = read.value.byteLength > room ? read.value.subarray(0, room) : read.value
      kept.push(chunk)
      length += chunk.byteLength
    }
  } catch {
    return null
  }
  return passedOn(request, bodiless ? null : joinedBytes(kept, length))
}

/** The request with `body`, read, in place of its stream. */
function passedOn(request: Request, body: BodyInit | null): Request {
  const headers = new Headers(request.headers)
  // The runtime gives the body in memory its own length.
  headers.delete('content-length')
  headers.delete('transfer-encoding')
  return new Request(request.url, { method: request.method, headers, body })
}
