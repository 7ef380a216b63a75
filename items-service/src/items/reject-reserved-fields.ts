import type { MiddlewareHandler } from 'hono'
import { findReservedFieldNames } from './reserved-field-names.js'

/** 400 for a JSON body with reserved field names or too deep nesting; runs after parsing. */
export const rejectReservedFields: MiddlewareHandler = async (c, next) => {
  const issues = findReservedFieldNames(await c.req.json())
  if (issues.length === 0) return next()
  return c.json(
    {
      error: 'request body has fields that cannot be stored',
      issues: issues.map(({ path, message }) => ({ path: path.join('.'), message })),
    },
    400,
  )
}
