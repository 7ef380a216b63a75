import type { Env } from 'hono'
import * as z from 'zod/mini'
import type { ApiApp } from './api-app.js'
import { apiKeyScheme, bearerScheme } from './api-key.js'
import { apiRoute } from './api-route.js'
import { sendTaggedResponse } from './conditional-get.js'
import { docsUi } from './docs-ui.js'
import { errorEntry } from './error-entry.js'
import { withImplicitMethods } from './implicit-methods.js'
import { documented } from './schema-docs.js'

/** What a service says of itself at the top of its document and page. */
type ServiceInfo = {
  title: string
  version: string
  description: string
  /** What each tag of its operations stands for, by tag name. */
  tags?: Record<string, string>
  /**
   * Whether this running service wants its key where a route takes one only when a key is set
   * (security `[{ ApiKey: [] }, {}]`): the document then says `[{ ApiKey: [] }]` or `[]`, so that
   * Swagger UI shows a lock only where a write needs the key.
   */
  keyed?: boolean
  /**
   * Whether this running service takes users' tokens (an issuer is set) where a route takes one
   * (`guarded(route, { bearer: true })`): the `BearerToken` requirement stays in the document.
   */
  users?: boolean
  /** JSON Schemas the routes' schemas refer to by `$ref`, by name. */
  schemas?: Record<string, object>
}

/** Relative: resolved against the document's own URL, so it holds behind any host or prefix. */
const servers = [{ url: '.', description: 'Where this document is served from' }]

const kitTags: Record<string, string> = {
  Health: 'Whether the service can serve',
  Docs: 'This document, for tools and for people',
}

/** The document with a `tags` list: every tag its operations use, in order of first use. */
function withTags<D extends { paths?: object }>(document: D, described: Record<string, string>) {
  const items = Object.values(document.paths ?? {}) as Record<string, { tags?: string[] }>[]
  const names = new Set(items.flatMap(Object.values).flatMap((operation) => operation.tags ?? []))
  const tags = [...names].map((name) => {
    const description = described[name] ?? kitTags[name]
    return description === undefined ? { name } : { name, description }
  })
  return { ...document, tags }
}

const openApiRoute = apiRoute({
  method: 'get',
  path: '/openapi.json',
  operationId: 'getOpenApiDocument',
  tags: ['Docs'],
  summary: 'This document',
  description: 'The OpenAPI 3.1 document of this service, for tools and client generators.',
  security: [],
  responses: {
    200: {
      description: 'The OpenAPI 3.1 document, generated from the schemas the routes validate with',
      content: {
        'application/json': {
          schema: documented(z.looseObject({ openapi: z.string() }), {
            example: { openapi: '3.1.0', info: { title: 'items-service', version: '1.0.0' } },
          }),
        },
      },
    },
  },
})

const docsRoute = apiRoute({
  method: 'get',
  path: '/docs',
  operationId: 'getDocs',
  tags: ['Docs'],
  summary: 'This document as a web page',
  description:
    'Swagger UI for this document: every operation with its examples and schemas, and a console to try them.',
  security: [],
  responses: {
    200: {
      description: 'Swagger UI for this document; its files come from `/docs/{file}`',
      content: {
        'text/html': {
          schema: documented(z.string(), { example: '<!doctype html><html>…</html>' }),
        },
      },
    },
  },
})

const docsFileRoute = apiRoute({
  method: 'get',
  path: '/docs/{file}',
  operationId: 'getDocsFile',
  tags: ['Docs'],
  summary: 'A file of the docs page',
  description:
    "Swagger UI's stylesheet and script and the script that starts it, as the page at /docs names them.",
  security: [],
  request: {
    params: z.object({ file: documented(z.string(), { example: 'swagger-ui-bundle.js' }) }),
    query: z.object({
      v: z.optional(
        documented(z.string(), {
          description: 'The version the page names; at it, the answer may be kept for a year',
          example: '3f2a9c0d1e4b5a67',
        }),
      ),
    }),
  },
  responses: {
    200: {
      description: 'The file, with its `ETag`',
      content: {
        'text/javascript': { schema: z.string(), example: '!function(e,t){…}(this,…)' },
        'text/css': { schema: z.string(), example: '.swagger-ui{…}' },
      },
    },
    304: { description: 'The version the request holds (`If-None-Match`) is the current one' },
    404: errorEntry('The page loads no file of that name', 'no such file'),
  },
})

/**
 * The document with each "key only when one is set" security requirement decided by `keyed`,
 * and each user's token by `users`: what remains is what the running service takes.
 */
function withKeyResolved<D extends { paths?: object }>(
  document: D,
  active: { keyed: boolean; users: boolean },
): D {
  const takes = (requirement: object) => {
    const names = Object.keys(requirement)
    if (names.includes(apiKeyScheme.name)) return active.keyed
    if (names.includes(bearerScheme.name)) return active.users
    return false
  }
  const paths = Object.entries((document.paths ?? {}) as Record<string, Record<string, object>>)
  return {
    ...document,
    paths: Object.fromEntries(
      paths.map(([path, item]) => [
        path,
        Object.fromEntries(
          Object.entries(item).map(([method, operation]) => {
            const security = (operation as { security?: object[] }).security
            const optional = security?.some((requirement) => Object.keys(requirement).length === 0)
            if (!security || !optional || security.length < 2) return [method, operation]
            return [method, { ...operation, security: security.filter(takes) }]
          }),
        ),
      ]),
    ),
  }
}

/**
 * The document with only the security schemes some operation requires: a service that takes no
 * key and no token declares none, and Swagger UI offers nothing to authorize with.
 */
function withUsedSchemes<D extends { paths?: object; components?: object }>(document: D): D {
  const operations = Object.values((document.paths ?? {}) as Record<string, object>).flatMap(
    (item) => Object.values(item) as { security?: object[] }[],
  )
  const used = new Set(
    operations.flatMap(({ security = [] }) =>
      security.flatMap((requirement) => Object.keys(requirement)),
    ),
  )
  const { securitySchemes = {}, ...components } = (document.components ?? {}) as {
    securitySchemes?: Record<string, object>
  }
  const kept = Object.entries(securitySchemes).filter(([name]) => used.has(name))
  return {
    ...document,
    components: {
      ...components,
      ...(kept.length > 0 && { securitySchemes: Object.fromEntries(kept) }),
    },
  }
}

/**
 * Adds `GET /openapi.json` (OpenAPI 3.1, generated from the zod schemas the routes validate
 * with) and `GET /docs` (Swagger UI for that document, its files under `/docs/`) to `app`. Both
 * are made on their first request, so routes added after this call are in them too. Not
 * `@hono/swagger-ui`: it loads Swagger UI from a CDN, which the page's policy and an offline
 * machine refuse; here its files come from `swagger-ui-dist`, served by the service itself.
 * @example addDocsRoutes(app, { title: 'items-service', version: '1.0.0', description: '...' })
 */
export function addDocsRoutes<E extends Env>(app: ApiApp<E>, info: ServiceInfo): void {
  // Written on its first request, from a module loaded then: a Worker that starts for another
  // request evaluates nothing of JSON Schema.
  let document: Promise<object> | undefined
  const getDocument = async () => {
    const { openApiDocument } = await import('./openapi-document.js')
    const { tags = {}, keyed, users = false, schemas, ...about } = info
    const bearer = app.apiRoutes.some(({ security = [] }) =>
      security.some((requirement) => bearerScheme.name in requirement),
    )
    const generated = openApiDocument(app.apiRoutes, {
      info: about,
      servers,
      ...(schemas && { schemas }),
      securitySchemes: {
        [apiKeyScheme.name]: apiKeyScheme.scheme,
        ...(bearer && { [bearerScheme.name]: bearerScheme.scheme }),
      },
    })
    const resolved = keyed === undefined ? generated : withKeyResolved(generated, { keyed, users })
    return withTags(withImplicitMethods(withUsedSchemes(resolved)), tags)
  }
  // Swagger UI's files load on the first request for them: the builds keep them in a chunk of
  // their own. Swapped per build (package.json `imports`): the Worker builds, condition
  // `static-assets`, get `swagger-ui-files.as-assets.ts` (the platform serves the files); a
  // bundle of `workerd` or `text-imports` (the Node builds' dist/) gets
  // `swagger-ui-files.bundled.ts` (the files as text in the bundle); Node from source and the
  // tests get `swagger-ui-files.ts` (read from swagger-ui-dist on disk).
  const ui = docsUi(`${info.title} API`, () =>
    import('#swagger-ui-files').then((files) => files.readSwaggerUiFiles()),
  )
  app.openapi(openApiRoute, async (c) => {
    document ??= getDocument()
    return c.json(await document, 200)
  })
  app.openapi(docsRoute, async (c) => c.html(await ui.page(), 200, ui.headers))
  app.openapi(docsFileRoute, async (c) => {
    const file = await ui.file(c.req.valid('param').file, {
      version: c.req.valid('query').v,
      ifNoneMatch: c.req.header('if-none-match'),
    })
    if (!file) return c.json({ error: 'no such file' }, 404)
    return sendTaggedResponse(c, file) as never
  })
}
