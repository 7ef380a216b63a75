import { MailApiError } from './mail-api-error.js'

/** `application/json`, and any `+json` type, parameters aside. */
const json = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/**
 * The parsed JSON of a 2xx answer. An error status rejects with the service's error; an
 * answer that is not JSON (another Content-Type, or text that does not parse) with a
 * `MailApiError` of its status that says so. A body cut short rejects with the fetch's own
 * error, as no answer at all does: the retries treat both alike.
 */
export async function readJson<T>(response: Response): Promise<T> {
  if (!response.ok) throw await MailApiError.fromResponse(response)
  const type = response.headers.get('content-type')
  if (type !== null && !json.test(type)) {
    await response.body?.cancel().catch(() => {})
    throw MailApiError.unreadable(response, `the answer is ${type}, not JSON`)
  }
  const text = await response.text()
  try {
    return JSON.parse(text) as T
  } catch {
    throw MailApiError.unreadable(response, 'the answer is not valid JSON')
  }
}
