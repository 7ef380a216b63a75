import { expect } from 'vitest'
import type { Fetch } from '../../src/request-headers.js'

// What the client's request tests share: a fetch that stands in for the network and keeps what
// was sent, a movie as sent and as stored, and the error a call rejected with.

type Sent = { url: string; method: string; headers: Record<string, string>; body: unknown }

/** A fetch that records each request and answers with the given response. */
export function recordingFetch(answer: () => Response = () => Response.json([])) {
  const sent: Sent[] = []
  const fetch: Fetch = async (url, init) => {
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body
    const headers = Object.fromEntries(new Headers(init.headers))
    sent.push({ url, method: init.method ?? 'GET', headers, body })
    return answer()
  }
  return { fetch, sent }
}

export const movie = { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }
export const stored = { _id: '6740a1f2c3d4e5f6a7b8c9d0', ...movie }

/** What a call rejected with, for the assertions. */
export const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call was expected to fail'),
    (error: unknown) => error,
  )
