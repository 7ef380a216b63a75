/**
 * A `GET` or `HEAD` of `/`: what the Worker answers itself. The path is read from the request's
 * URL (absolute, as the runtime hands it in) without parsing it into a `URL`, which every read
 * of an item would pay for.
 */
export function asksForPage(request: Request): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  const { url } = request
  const path = url.indexOf('/', url.indexOf('//') + 2)
  return path !== -1 && (path === url.length - 1 || url[path + 1] === '?' || url[path + 1] === '#')
}
