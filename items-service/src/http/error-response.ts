import { z } from '@hono/zod-openapi'

/** The body of every 4xx and 5xx answer. */
export const errorSchema = z
  .object({
    error: z.string().openapi({ example: "item 'tt0111161' not found" }),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: 'What failed validation, field by field' }),
  })
  .openapi('Error')

export type ErrorBody = z.infer<typeof errorSchema>

/** An OpenAPI response entry for an error status. */
export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: errorSchema } } }
}

/** Turns zod issues into the `issues` of an error body, with dotted paths. */
export function describeIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): NonNullable<ErrorBody['issues']> {
  return issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }))
}
