import type { MiddlewareHandler } from 'hono'

/**
 * 400 for a path whose percent-encoding is not UTF-8 (`/items/%ED%A0%80`, a lone surrogate's
 * bytes). Hono routes such a path with the undecoded text as the parameter, so that the route
 * would look up an item named `%ED%A0%80`, which another client may have created on purpose
 * (as `/items/%25ED%25A0%2580`). Put it in the middleware of a route with path parameters.
 */
export const decodablePath: MiddlewareHandler = (c, next) => {
  const url = c.req.url
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const end = url.indexOf('?', start)
  const path = url.slice(start, end < 0 ? undefined : end)
  if (!path.includes('%')) return next()
  try {
    decodeURIComponent(path)
  } catch {
    const [name = 'path'] = Object.keys(c.req.param())
    return Promise.resolve(
      c.json(
        {
          error: 'invalid path parameter',
          issues: [{ path: name, message: 'is not percent-encoded UTF-8' }],
        },
        400,
      ),
    )
  }
  return next()
}
