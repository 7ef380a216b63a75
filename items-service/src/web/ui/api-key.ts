import { useRef, useState } from 'hono/jsx/dom'

const storageKey = 'items-apikey'

/** The items API key given in this tab, if any (sessionStorage: gone when the tab closes). */
export function storedApiKey(): string {
  try {
    return sessionStorage.getItem(storageKey) ?? ''
  } catch {
    return ''
  }
}

function storeApiKey(key: string): void {
  try {
    if (key) sessionStorage.setItem(storageKey, key)
    else sessionStorage.removeItem(storageKey)
  } catch {
    // Storage refused (a privacy mode): the key then lasts until the page is left.
  }
}

/** `fetch` that sends the stored key as `x-apikey` with writes, never with reads. */
export const keyedFetch: typeof fetch = (input, init) => {
  const method = (init?.method ?? 'GET').toUpperCase()
  const key = storedApiKey()
  if (method === 'GET' || method === 'HEAD' || !key) return fetch(input, init)
  const headers = new Headers(init?.headers)
  headers.set('x-apikey', key)
  return fetch(input, { ...init, headers })
}

/** Sends a write; resolves with its answer once it is not a 401 or the key prompt is given up. */
export type Write = (request: () => Promise<Response>) => Promise<Response>

type Waiting = {
  request: () => Promise<Response>
  /** The latest 401, answered to the caller if the prompt is given up. */
  refusal: Response
  resolve: (answer: Response | Promise<Response>) => void
}

/**
 * The key prompt's state: `write` sends a request and, on a 401, opens the prompt and waits;
 * `give` stores a key and retries what waited, `giveUp` answers the waiting writes their 401.
 */
export function useApiKey() {
  const [asking, setAsking] = useState(false)
  const [refused, setRefused] = useState(false)
  const [busy, setBusy] = useState(false)
  const waiting = useRef<Waiting[]>([])

  const write: Write = async (request) => {
    const refusal = await request()
    if (refusal.status !== 401) return refusal
    return new Promise<Response>((resolve) => {
      waiting.current?.push({ request, refusal, resolve })
      setRefused(storedApiKey() !== '')
      setAsking(true)
    })
  }

  const give = async (key: string) => {
    storeApiKey(key)
    setBusy(true)
    const still: Waiting[] = []
    for (const entry of waiting.current ?? []) {
      try {
        const response = await entry.request()
        if (response.status === 401) still.push({ ...entry, refusal: response })
        else entry.resolve(response)
      } catch (failure) {
        entry.resolve(Promise.reject(failure))
      }
    }
    waiting.current = still
    setBusy(false)
    // A refused key is forgotten, so the next write asks again rather than failing.
    if (still.length > 0) storeApiKey('')
    setRefused(still.length > 0)
    setAsking(still.length > 0)
  }

  const giveUp = () => {
    for (const entry of waiting.current ?? []) entry.resolve(entry.refusal)
    waiting.current = []
    setRefused(false)
    setAsking(false)
  }

  return { write, asking, refused, busy, give, giveUp }
}
