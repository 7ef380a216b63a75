import { useRef, useState } from 'hono/jsx/dom'
import { type Item, ItemsApiError, type ItemsClient } from './items-api.js'

const storageKey = 'items-apikey'

/** The items API key given in this tab, if any (sessionStorage: gone when the tab closes). */
function storedApiKey(): string {
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

/**
 * Sends a write with a client that carries the key given in this tab, if any; resolves with its
 * answer once it is not refused 401, or rejects with that 401 once the key prompt is given up.
 */
export type Write = (request: (items: ItemsClient) => Promise<Item[]>) => Promise<Item[]>

type Waiting = {
  request: (items: ItemsClient) => Promise<Item[]>
  /** The latest 401, what the caller gets if the prompt is given up. */
  refusal: ItemsApiError
  resolve: (answer: Item[]) => void
  reject: (error: unknown) => void
}

const isUnauthorized = (error: unknown): error is ItemsApiError =>
  error instanceof ItemsApiError && error.status === 401

/**
 * The key prompt's state: `write` sends a request and, on a 401, opens the prompt and waits;
 * `give` stores a key and retries what waited, `giveUp` rejects the waiting writes with their
 * 401. `clientWith` makes a client that sends `apiKey` with its writes (never with reads).
 */
export function useApiKey(clientWith: (apiKey: string | undefined) => ItemsClient) {
  const [asking, setAsking] = useState(false)
  const [refused, setRefused] = useState(false)
  const [busy, setBusy] = useState(false)
  const waiting = useRef<Waiting[]>([])
  const key = useRef(storedApiKey())

  const send = (request: Waiting['request']) => request(clientWith(key.current || undefined))

  const write: Write = async (request) => {
    try {
      return await send(request)
    } catch (error) {
      if (!isUnauthorized(error)) throw error
      return new Promise<Item[]>((resolve, reject) => {
        waiting.current?.push({ request, refusal: error, resolve, reject })
        setRefused(key.current !== '')
        setAsking(true)
      })
    }
  }

  const give = async (given: string) => {
    key.current = given
    storeApiKey(given)
    setBusy(true)
    const still: Waiting[] = []
    for (const entry of waiting.current ?? []) {
      try {
        entry.resolve(await send(entry.request))
      } catch (error) {
        if (isUnauthorized(error)) still.push({ ...entry, refusal: error })
        else entry.reject(error)
      }
    }
    waiting.current = still
    setBusy(false)
    // A refused key is forgotten, so the next write asks again rather than failing.
    if (still.length > 0) {
      key.current = ''
      storeApiKey('')
    }
    setRefused(still.length > 0)
    setAsking(still.length > 0)
  }

  const giveUp = () => {
    for (const entry of waiting.current ?? []) entry.reject(entry.refusal)
    waiting.current = []
    setRefused(false)
    setAsking(false)
  }

  return { write, asking, refused, busy, give, giveUp }
}
