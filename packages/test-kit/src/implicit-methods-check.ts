/** An OpenAPI document's paths, as far as this check reads them. */
type Paths = Record<string, Record<string, unknown>>

const anyMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/**
 * What differs between the methods a document lists on each path and what the app answers: a
 * plain `OPTIONS` is 204 with `Allow` naming exactly the documented methods, and every other
 * method is 405 with the same `Allow`. Path parameters are filled with `sample`. A path that
 * more than one template matches (`/items/events` and `/items/{id}`) has the methods of each.
 * @returns one line per difference; none when they agree
 */
export async function implicitMethodProblems(
  paths: Paths,
  request: (path: string, init: RequestInit) => Response | Promise<Response>,
  sample = 'x',
): Promise<string[]> {
  const problems: string[] = []
  for (const template of Object.keys(paths)) {
    const path = template.replace(/\{[^}]+\}/g, sample)
    const matching = Object.entries(paths).filter(([other]) =>
      new RegExp(`^${other.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
    )
    const documented = [...new Set(matching.flatMap(([, methods]) => Object.keys(methods)))].map(
      (method) => method.toUpperCase(),
    )
    const options = await request(path, { method: 'OPTIONS' })
    const allow = options.headers.get('allow') ?? ''
    const allowed = allow.split(/,\s*/).filter((method) => method !== '')
    if (options.status !== 204) problems.push(`OPTIONS ${path}: ${options.status}, not 204`)
    if ([...allowed].sort().join() !== [...documented].sort().join()) {
      problems.push(`OPTIONS ${path}: Allow is "${allow}", the document lists ${documented}`)
    }
    for (const method of anyMethods.filter((each) => !documented.includes(each))) {
      const response = await request(path, { method })
      await response.body?.cancel()
      if (response.status !== 405 || response.headers.get('allow') !== allow) {
        problems.push(
          `${method} ${path}: ${response.status} with Allow "${response.headers.get('allow')}"`,
        )
      }
    }
  }
  return problems
}
