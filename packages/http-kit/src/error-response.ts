import { z } from '@hono/zod-openapi'

// What an error answer is, for the OpenAPI documents: apart from the error handler, which a
// Worker's page runs without the documents' schemas (`plain-service-app.ts`).

/** The body of every 4xx and 5xx answer. */
export const errorSchema = z
  .object({
    error: z.string().openapi({ example: 'Unauthorized' }),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: 'What failed validation, field by field' }),
  })
  .openapi('Error')

export type ErrorBody = z.infer<typeof errorSchema>

/**
 * An OpenAPI response entry for an error status, with an example answer (the docs page shows
 * it): an error message, or a whole body.
 * @example errorResponse('No item has that id', "item 'tt0111161' not found")
 */
export function errorResponse(description: string, example: string | ErrorBody) {
  const body = typeof example === 'string' ? { error: example } : example
  return { description, content: { 'application/json': { schema: errorSchema, example: body } } }
}
