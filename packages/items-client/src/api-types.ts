// The API's shapes, written out so that the declarations need nothing of the service (zod,
// Node, its database driver). Their names are the OpenAPI document's schema names;
// items-service/src/client/client-types.test.ts holds them to the service's own route types.

/**
 * An item as `POST /items` takes it: `id` (1-200 characters, no control characters, not
 * `events`), `name` (1-500) and `genre` (1-100); other top-level fields are stored as given.
 * Field names that are `_id`, start with `$`, contain `.`, or are `__proto__`, `constructor`,
 * `prototype` are refused.
 */
export type NewItem = {
  id: string
  name: string
  genre: string
  [field: string]: unknown
}

/** The body of `PUT /items/:id`: any fields to set, at least one; the others are kept. */
export type ItemFields = {
  id?: string | undefined
  name?: string | undefined
  genre?: string | undefined
  [field: string]: unknown
}

/** An item as every answer carries it, with the `_id` the service gave it (24 hex digits). */
export type Item = {
  _id: string
  id: string
  name: string
  genre: string
  [field: string]: unknown
}

/** One field that failed validation: `path` is dotted (`name`, `tags.0`). */
export type ValidationIssue = { path: string; message: string }

/** The JSON body of every error answer; `issues` comes with a 400 for an invalid request. */
export type ErrorBody = { error: string; issues?: ValidationIssue[] | undefined }
