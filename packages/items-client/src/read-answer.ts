import { ItemsApiError } from './items-api-error.js'

/** `application/json`, and any `+json` type, parameters aside. */
const json = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/**
 * The body of a 2xx JSON answer, as text. An error status rejects with the service's error; an
 * answer of another Content-Type with an `ItemsApiError` of its status that says so.
 */
export async function readText(response: Response): Promise<string> {
  if (!response.ok) throw await ItemsApiError.fromResponse(response)
  const type = response.headers.get('content-type')
  if (type !== null && !json.test(type)) {
    // Unread: it may be a stream that never ends.
    await response.body?.cancel().catch(() => {})
    throw ItemsApiError.unreadable(response, `the answer is ${type}, not JSON`)
  }
  return response.text()
}

/**
 * `text` parsed; a body cut short or otherwise not JSON rejects with an `ItemsApiError` of the
 * answer's status that says so, never with a raw parse error.
 */
export function parseJson<T>(text: string, response: Response): T {
  try {
    return JSON.parse(text) as T
  } catch {
    throw ItemsApiError.unreadable(response, 'the answer is not valid JSON')
  }
}

/** The parsed JSON of a 2xx answer (see `readText` and `parseJson`). */
export async function readJson<T>(response: Response): Promise<T> {
  return parseJson<T>(await readText(response), response)
}
