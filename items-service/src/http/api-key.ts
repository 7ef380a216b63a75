import { timingSafeEqual } from 'node:crypto'
import { unreadBodyHeaders } from '@movies-and-mail/http-kit'
import type { MiddlewareHandler } from 'hono'

/**
 * Requires header `x-apikey` to equal `apiKey` (compared in constant time); 401 otherwise.
 * With no key configured it lets every request through.
 */
export function requireApiKey(apiKey: string | undefined): MiddlewareHandler {
  const expected = apiKey === undefined ? undefined : Buffer.from(apiKey)
  return async function checkApiKey(c, next) {
    if (expected === undefined) return next()
    const given = Buffer.from(c.req.header('x-apikey') ?? '')
    const matches = given.length === expected.length && timingSafeEqual(given, expected)
    if (!matches) return c.json({ error: 'Unauthorized' }, 401, unreadBodyHeaders(c))
    return next()
  }
}
