// The API's shapes, written out so that the declarations need nothing of the service (zod,
// Node, its database driver). Their names are the OpenAPI document's schema names;
// items-service/src/client/client-types.test.ts holds them to the service's own route types.

/** No custom fields: what `createItemsClient` assumes unless told otherwise. */
export type NoFields = Record<never, never>

/** The fields every item has, which custom fields cannot retype. */
type BuiltInField = '_id' | '_owner' | 'id' | 'name' | 'genre'

/**
 * The custom fields of `createItemsClient<Fields>`, each optional: the service stores any
 * fields, so an item may lack one (`item.year` is `number | undefined` for `{ year: number }`).
 */
export type CustomFields<Fields extends object> = {
  [K in Exclude<keyof Fields, BuiltInField>]?: Fields[K] | undefined
}

/** One object type of an intersection, as editors show it. */
type Flat<T> = { [K in keyof T]: T[K] }

/**
 * An item as `POST /items` takes it: `id` (1-200 characters, no control characters, not
 * `events`), `name` (1-500) and `genre` (1-100); other top-level fields are stored as given.
 * Field names that are `_id` or `_owner`, start with `$`, contain `.`, or are `__proto__`, `constructor`,
 * `prototype` are refused.
 */
export type NewItem<Fields extends object = NoFields> = Flat<
  { id: string; name: string; genre: string } & CustomFields<Fields> & {
      [field: string]: unknown
    }
>

/** The body of `PUT /items/:id`: any fields to set, at least one; the others are kept. */
export type ItemFields<Fields extends object = NoFields> = Flat<
  {
    id?: string | undefined
    name?: string | undefined
    genre?: string | undefined
  } & CustomFields<Fields> & { [field: string]: unknown }
>

/**
 * An item as every answer carries it, with the `_id` the service gave it (24 hex digits), and
 * `_owner`, the signed-in user who created it (their token's `sub`), unless the key did.
 */
export type Item<Fields extends object = NoFields> = Flat<
  {
    _id: string
    _owner?: string
    id: string
    name: string
    genre: string
  } & CustomFields<Fields> & {
      [field: string]: unknown
    }
>

/**
 * What `update` takes as `fields`: `U` itself, unless it has no field at all, which the
 * service refuses (400): then a type no object literal meets, whose name says why.
 */
export type AtLeastOneField<U> = keyof U extends never
  ? { 'update needs at least one field': never }
  : unknown

/** One field that failed validation: `path` is dotted (`name`, `tags.0`). */
export type ValidationIssue = { path: string; message: string }

/** The JSON body of every error answer; `issues` comes with a 400 for an invalid request. */
export type ErrorBody = { error: string; issues?: ValidationIssue[] | undefined }
