import type { Context } from 'hono'

/**
 * 400 for a path whose percent-encoding is not UTF-8 (`/items/%ED%A0%80`, a lone surrogate's
 * bytes); nothing for any other. Hono routes such a path with the undecoded text as the
 * parameter, so that the route would look up an item named `%ED%A0%80`, which another client may
 * have created on purpose (as `/items/%25ED%25A0%2580`). `ApiApp` runs it first on every route
 * with path parameters, before their check, in the same turn.
 */
export function undecodablePath(c: Context): Response | undefined {
  const url = c.req.url
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const end = url.indexOf('?', start)
  const path = url.slice(start, end < 0 ? undefined : end)
  if (!path.includes('%')) return undefined
  try {
    decodeURIComponent(path)
    return undefined
  } catch {
    const [name = 'path'] = Object.keys(c.req.param())
    const issues = [{ path: name, message: 'is not percent-encoded UTF-8' }]
    return c.json({ error: 'invalid path parameter', issues }, 400)
  }
}
