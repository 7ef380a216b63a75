import { ItemsApiError } from './items-api-error.js'

/** `application/json`, and any `+json` type, parameters aside. */
const json = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/**
 * The parsed JSON of a 2xx answer. An error status rejects with the service's error; an
 * answer that is not JSON (another Content-Type, a body cut short) with an `ItemsApiError`
 * of its status that says so, never with a raw parse error.
 */
export async function readJson<T>(response: Response): Promise<T> {
  if (!response.ok) throw await ItemsApiError.fromResponse(response)
  const type = response.headers.get('content-type')
  if (type !== null && !json.test(type)) {
    // Unread: it may be a stream that never ends.
    await response.body?.cancel().catch(() => {})
    throw ItemsApiError.unreadable(response, `the answer is ${type}, not JSON`)
  }
  const text = await response.text()
  try {
    return JSON.parse(text) as T
  } catch {
    throw ItemsApiError.unreadable(response, 'the answer is not valid JSON')
  }
}
