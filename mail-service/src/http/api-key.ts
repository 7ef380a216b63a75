import { unreadBodyHeaders } from '@movies-and-mail/http-kit'
import type { MiddlewareHandler } from 'hono'

const encoder = new TextEncoder()

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)))
}

/**
 * Requires header `x-apikey` to equal one of `apiKeys`: 401 `{"error":"Unauthorized"}`
 * otherwise, and with no keys at all every request is refused. Keys are compared as SHA-256
 * digests, byte by byte without stopping early, against every key: the time taken tells
 * nothing about how close a guess was. Web Crypto only, so it runs on Workers too.
 */
export function requireApiKey(apiKeys: readonly string[]): MiddlewareHandler {
  const expected = Promise.all(apiKeys.map(digest))
  return async function checkApiKey(c, next) {
    const given = await digest(c.req.header('x-apikey') ?? '')
    let matches = 0
    for (const key of await expected) {
      let difference = 0
      for (let i = 0; i < key.length; i++) difference |= (key[i] ?? 0) ^ (given[i] ?? 0)
      matches |= difference === 0 ? 1 : 0
    }
    if (matches === 0) return c.json({ error: 'Unauthorized' }, 401, unreadBodyHeaders(c))
    return next()
  }
}
