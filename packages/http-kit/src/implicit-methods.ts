/** An operation of an OpenAPI document, as far as this file reads and writes one. */
type Operation = {
  operationId?: string
  tags?: string[]
  summary?: string
  description?: string
  parameters?: unknown[]
  security?: unknown[]
  responses?: Record<string, { description: string; headers?: object; content?: object }>
}

type PathItem = Record<string, Operation>

const allowHeader = {
  description: 'The methods this path answers, e.g. `GET, HEAD, POST, OPTIONS`',
  schema: { type: 'string' },
}

/** `/items/{id}` as an operation id's tail: `ItemsId`. */
function nameOf(path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter((word) => word !== '')
  return words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('') || 'Root'
}

/**
 * The document with the methods every path answers beside its declared operations, as
 * `allowedMethods` and `noRouteResponse` answer them: `HEAD` wherever there is a `GET` (Hono
 * answers it from the `GET`: the same statuses and headers, no body) and `OPTIONS` on every
 * path (204 with `Allow`). A method a path lacks answers 405 with that `Allow` and a JSON
 * error, which each `OPTIONS` operation says, there being no operation to put it in.
 */
export function withImplicitMethods<D extends { paths?: object }>(document: D): D {
  const paths = Object.entries((document.paths ?? {}) as Record<string, PathItem>).map(
    ([path, item]) => {
      const [first] = Object.values(item)
      const added: PathItem = {}
      const get = item.get
      if (get) {
        const responses = Object.fromEntries(
          Object.entries(get.responses ?? {}).map(([status, { description, headers }]) => [
            status,
            { description, ...(headers && { headers }) },
          ]),
        )
        added.head = {
          ...get,
          operationId: `head${nameOf(path)}`,
          summary: `${get.summary ?? 'GET'}: its status and headers, without the body`,
          description: `What \`GET ${path}\` answers, without the body.`,
          responses,
        }
      }
      const pathParameters = (first?.parameters ?? []).filter(
        (parameter) => (parameter as { in?: string }).in === 'path',
      )
      added.options = {
        operationId: `options${nameOf(path)}`,
        ...(pathParameters.length > 0 && { parameters: pathParameters }),
        ...(first?.tags && { tags: first.tags }),
        summary: 'The methods of this path',
        description:
          'Answers 204 with `Allow`. Any method not in `Allow` answers **405** with the same ' +
          '`Allow` header and `{"error": "..."}`. A CORS preflight is answered by the CORS rules instead.',
        security: [],
        responses: {
          204: { description: 'The methods, in `Allow`', headers: { Allow: allowHeader } },
        },
      }
      return [path, { ...item, ...added }]
    },
  )
  return { ...document, paths: Object.fromEntries(paths) }
}
