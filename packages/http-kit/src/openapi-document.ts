import {
  type $ZodType,
  type $ZodTypes,
  globalRegistry,
  type JSONSchema,
  registry,
  toJSONSchema,
} from 'zod/v4/core'
import { type ApiRoute, isZodSchema, type MediaEntry } from './api-route.js'

// The OpenAPI 3.1 document of a list of routes, their zod schemas written as JSON Schema by zod
// itself. A schema registered with an `id` (`named`) is a component, referred to by `$ref`
// wherever it appears; any other is written out in place. Each is written as what it accepts
// (zod's `input`): an object that drops unknown keys does not refuse them, so it is written
// without `additionalProperties: false`, as the responses, written by hand, promise no more.

/** Where a schema's JSON goes once written: filled in place, after the whole document is laid out. */
type Slot = { target: Record<string, unknown>; schema: $ZodType }

const componentUri = (id: string) => `#/components/schemas/${id}`

/** The id a schema was registered with (`named`), if any. */
const idOf = (schema: $ZodType) => globalRegistry.get(schema)?.id

/** What a parameter's schema says of it, looking through `optional` and `default`. */
function descriptionOf(schema: $ZodType): string | undefined {
  const description = globalRegistry.get(schema)?.description
  const def = (schema as $ZodTypes)._zod.def
  if (description !== undefined || (def.type !== 'optional' && def.type !== 'default')) {
    return description
  }
  return descriptionOf(def.innerType)
}

/** JSON Schema of every schema in `book`, by id, without the keys that say where it stands. */
function written(book: ReturnType<typeof registry<{ id: string }>>) {
  const { schemas } = toJSONSchema(book, {
    uri: componentUri,
    target: 'draft-2020-12',
    io: 'input',
  })
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema]),
  ) as Record<string, JSONSchema.BaseSchema>
}

/** The named schemas inside an unnamed one, which zod writes into its `$defs` under their ids. */
function namedInside(schema: $ZodType): string[] {
  const { $defs = {} } = toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' })
  return Object.keys($defs).filter((id) => globalRegistry._idmap.has(id))
}

/**
 * The named schemas `roots` use, at any depth, as components. zod writes a named schema it meets
 * outside the registry it was given into a shared `$defs`: each such name joins the registry and
 * the schemas are written again, until none is left out.
 */
function componentsOf(roots: readonly Slot[]): Record<string, JSONSchema.BaseSchema> {
  const named = new Map<string, $ZodType>()
  for (const { schema } of roots) {
    const id = idOf(schema)
    const ids = id === undefined ? namedInside(schema) : [id]
    for (const each of ids) named.set(each, globalRegistry._idmap.get(each) ?? schema)
  }
  for (;;) {
    const book = registry<{ id: string }>()
    for (const [id, schema] of named) book.add(schema, { id })
    const { __shared, ...components } = written(book)
    const missing = Object.keys(__shared?.$defs ?? {})
    if (missing.length === 0) return components
    for (const id of missing) {
      const schema = globalRegistry._idmap.get(id)
      if (!schema) throw new Error(`no schema is registered as ${id}`)
      named.set(id, schema)
    }
  }
}

/** A schema written out in place: its named parts referred to, as components. */
function writtenInPlace(schema: $ZodType, names: readonly string[]) {
  const book = registry<{ id: string }>()
  for (const id of names) {
    const named = globalRegistry._idmap.get(id)
    if (named) book.add(named, { id })
  }
  book.add(schema, { id: '~in-place' })
  return written(book)['~in-place']
}

/** Lays out a document, leaving a slot for each schema's JSON, to be written in one go. */
class Layout {
  readonly slots: Slot[] = []

  schema(schema: $ZodType): Record<string, unknown> {
    const target = {}
    this.slots.push({ target, schema })
    return target
  }

  content(content: Record<string, MediaEntry>) {
    return Object.fromEntries(
      Object.entries(content).map(([type, { schema, example }]) => [
        type,
        {
          ...(example !== undefined && { example }),
          ...(schema && { schema: isZodSchema(schema) ? this.schema(schema) : schema }),
        },
      ]),
    )
  }

  /** One parameter per property of an object schema, as a request sends it. */
  parameters(schema: $ZodType | undefined, where: 'path' | 'query' | 'header') {
    const shape = (schema as $ZodTypes | undefined)?._zod.def
    if (shape?.type !== 'object') return []
    return Object.entries(shape.shape).map(([name, property]) => {
      const description = descriptionOf(property)
      return {
        schema: this.schema(property),
        // As zod's own JSON Schema says `required`: neither optional nor defaulted.
        required: where === 'path' || property._zod.optin === undefined,
        ...(description !== undefined && { description }),
        name,
        in: where,
      }
    })
  }

  operation(route: ApiRoute) {
    const { request = {}, middleware: _, method: __, path: ___, parameters = [], ...rest } = route
    const body = request.body
    const all = [
      ...parameters,
      ...this.parameters(request.params, 'path'),
      ...this.parameters(request.query, 'query'),
      ...this.parameters(request.headers, 'header'),
    ]
    return {
      ...rest,
      ...(all.length > 0 && { parameters: all }),
      ...(body && {
        requestBody: {
          ...(body.description !== undefined && { description: body.description }),
          required: body.required ?? true,
          content: this.content(body.content),
        },
      }),
      responses: Object.fromEntries(
        Object.entries(route.responses).map(([status, { content, ...entry }]) => [
          status,
          { ...entry, ...(content && { content: this.content(content) }) },
        ]),
      ),
    }
  }
}

export type DocumentOptions = {
  info: { title: string; version: string; description?: string }
  servers?: readonly { url: string; description?: string }[]
  /** JSON Schemas the routes' schemas refer to by `$ref`, by name. */
  schemas?: Record<string, object>
  securitySchemes?: Record<string, object>
}

/**
 * The OpenAPI 3.1 document of `routes`, in their order (a path's operations together).
 * @example openApiDocument(app.apiRoutes, { info: { title: 'items-service', version: '1.0.0' } })
 */
export function openApiDocument(routes: readonly ApiRoute[], options: DocumentOptions) {
  const layout = new Layout()
  const paths: Record<string, Record<string, object>> = {}
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: layout.operation(route) }
  }
  const components = componentsOf(layout.slots)
  const names = Object.keys(components)
  for (const { target, schema } of layout.slots) {
    const id = idOf(schema)
    Object.assign(
      target,
      id === undefined ? writtenInPlace(schema, names) : { $ref: componentUri(id) },
    )
  }
  return {
    openapi: '3.1.0',
    info: options.info,
    ...(options.servers && { servers: options.servers }),
    components: {
      ...(options.securitySchemes && { securitySchemes: options.securitySchemes }),
      schemas: { ...options.schemas, ...components },
    },
    paths,
  }
}
