import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'

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

/** An OpenAPI response entry for an error status. */
export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: errorSchema } } }
}

/** The validation hook of every route: 400 with the issues, paths dotted. */
export function validationHook(
  result: { success: true } | { success: false; error: z.ZodError },
  c: Context,
) {
  if (result.success) return
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }))
  return c.json({ error: 'invalid request', issues }, 400)
}

/** JSON for errors nothing else caught: HTTP errors keep their status, the rest are a bare 500. */
export function errorHandler(logError: (line: string) => void) {
  return (error: Error, c: Context) => {
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ error: error.message || 'Bad Request' }, error.status)
    }
    logError(`${c.req.method} ${c.req.path}: ${error.stack ?? error.message}`)
    return c.json({ error: 'internal error' }, 500)
  }
}

/** JSON 404 for any path or method no route serves. */
export function notFound(c: Context) {
  return c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404)
}
