import { type $ZodType, clone, globalRegistry } from 'zod/v4/core'

/** What an OpenAPI document says of a schema beyond its checks: JSON Schema keywords. */
export type SchemaDocs = { description?: string; example?: unknown; [keyword: string]: unknown }

/**
 * A copy of `schema`, the same checks, with what the OpenAPI document says of it (zod's global
 * registry, which `openApiDocument` reads). A copy, so that one schema can be documented two
 * ways: an id where a path takes it and where a write gives it, say.
 * @example const name = documented(z.string(), { example: 'Drama' })
 */
export function documented<T extends $ZodType>(schema: T, docs: SchemaDocs): T {
  const copy = clone(schema)
  globalRegistry.add(copy, docs)
  return copy
}

/**
 * A copy of `schema` that the OpenAPI document holds as a component under `id`, referred to by
 * `$ref` wherever it appears.
 * @example export const itemSchema = named('Item', z.object({ ... }), { example })
 */
export function named<T extends $ZodType>(id: string, schema: T, docs: SchemaDocs = {}): T {
  return documented(schema, { ...docs, id })
}
