import * as z from 'zod/mini'
import { documented, named } from './schema-docs.js'

// What an error response is, for the OpenAPI documents: apart from the error handler, which a
// Worker's page runs without the documents' schemas (`plain-service-app.ts`).

/** The body of every 4xx and 5xx answer. */
export const errorSchema = named(
  'Error',
  z.object({
    error: documented(z.string(), { example: 'Unauthorized' }),
    issues: documented(z.optional(z.array(z.object({ path: z.string(), message: z.string() }))), {
      description: 'What failed validation, field by field',
    }),
  }),
)

export type ErrorBody = z.infer<typeof errorSchema>

/**
 * An OpenAPI response entry for an error status, with an example answer (the docs page shows
 * it): an error message, or a whole body.
 * @example errorEntry('No item has that id', "item 'tt0111161' not found")
 */
export function errorEntry(description: string, example: string | ErrorBody) {
  const body = typeof example === 'string' ? { error: example } : example
  return { description, content: { 'application/json': { schema: errorSchema, example: body } } }
}
