import type { MiddlewareHandler } from 'hono'
import { findReservedFieldNames } from './reserved-field-names.js'

/** 400 for a JSON body that names reserved fields; runs after the body has been parsed. */
export const rejectReservedFields: MiddlewareHandler = async (c, next) => {
  const issues = findReservedFieldNames(await c.req.json())
  if (issues.length === 0) return next()
  return c.json(
    {
      error: 'request body uses reserved field names',
      issues: issues.map(({ path, message }) => ({ path: path.join('.'), message })),
    },
    400,
  )
}
