import { guarded, jsonObjectBody } from '@movies-and-mail/http-kit/app'
import { apiRoute, errorEntry } from '@movies-and-mail/http-kit/routes'
import {
  itemFieldsSchema,
  itemIdParamSchema,
  itemListSchema,
  itemSchema,
  newItemSchema,
  rejectReservedFields,
} from './item.schema.js'
import { maxItemBodyBytes } from './max-item-body-bytes.js'
import { queryParameters, sortIssue } from './parse-query.js'

/** What a write's body must pass, in order, after the API-key guard and before the validator. */
const itemBody = [...jsonObjectBody({ maxBytes: maxItemBodyBytes }), rejectReservedFields]

const etagHeader = {
  ETag: {
    schema: { type: 'string', example: '"3f9a1c2b7d4e-42"' },
    description:
      'Strong entity tag of the answered bytes (a compressed list has its own, ending in ' +
      '`-br"` or `-gzip"`); send it back in If-None-Match or If-Match',
  },
} as const
const listResponse = (description: string) => ({
  description,
  headers: etagHeader,
  content: { 'application/json': { schema: itemListSchema } },
})
const notModified = {
  description: 'If-None-Match names the current tag: nothing changed since, no body',
  headers: etagHeader,
}
const ifNoneMatch = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'ETags of an earlier answer, or `*`: a match answers 304 without a body',
  // No example: the docs page would send it with every try.
  schema: { type: 'string' },
} as const
const ifMatch = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    "The item's ETag as last read, or `*` for any existing item: otherwise 412 and nothing " +
    'changes',
  schema: { type: 'string' },
} as const
const preconditionFailed = errorEntry(
  "If-Match does not name the item's current ETag (or the item is gone); nothing changed",
  "item 'tt0111161' does not match If-Match",
)

const badBody = errorEntry('Body is not JSON, not an object, or fails validation', {
  error: 'invalid request body',
  issues: [{ path: 'name', message: 'Too small: expected string to have >=1 characters' }],
})
const badId = errorEntry('The id is not a valid item id', {
  error: 'invalid path parameter',
  issues: [{ path: 'id', message: 'must not contain control characters' }],
})
const unauthorized = errorEntry(
  '`x-apikey` is missing or wrong while ITEMS_APIKEY is set; or, with ITEMS_JWT_ISSUER set, the request has no token (`Authorization: Bearer`) or a bad one',
  'Unauthorized',
)
/**
 * A drive-by write (a page on another origin, where writes take no key), or a user's write of
 * another user's item.
 */
const foreignPage = errorEntry(
  "A page on another origin wrote while ITEMS_APIKEY is not set, and CORS_ORIGINS does not name its origin; or a user's token wrote an item another user (or the API key) created. Nothing changed",
  'a write from https://other.example needs that origin in CORS_ORIGINS',
)
const notFound = errorEntry('No item has that id', "item 'tt0111161' not found")
const unavailable = errorEntry('The database did not answer', 'database unavailable')
const noSpace = errorEntry(
  'The disk is full, or the collection holds what ITEMS_MAX_COUNT or ITEMS_MAX_BYTES allow; nothing of the write was stored',
  'no space left to store the write',
)
const tooLarge = errorEntry('Body larger than 64 KiB', 'request body is larger than 65536 bytes')
const lateBody = errorEntry(
  'The body did not all arrive within BODY_TIMEOUT_MS; the connection closes',
  'the request body did not arrive within 30 s',
)
const notJson = errorEntry(
  'Content-Type is not application/json',
  'Content-Type must be application/json',
)
/** Writes need `x-apikey` only when ITEMS_APIKEY is set, hence the empty alternative. */
const writeSecurity: Record<string, string[]>[] = [{ ApiKey: [] }, {}]

const varyHeader = {
  Vary: {
    schema: { type: 'string', example: 'Accept-Encoding' },
    description: 'The list without a query is sent compressed when the client accepts it',
  },
} as const
const badQuery = errorEntry('A query parameter has a value it cannot have', {
  error: 'invalid query parameter',
  issues: [{ path: 'sort', message: sortIssue }],
})

export const listItemsRoute = apiRoute({
  method: 'get',
  path: '/items',
  operationId: 'listItems',
  tags: ['Items'],
  summary: 'List every item, or those a query selects',
  description:
    'Every item, oldest first. With a query string: only the items the filters select, in ' +
    'the order `sort` names, a page at a time with `limit`. Without a query, compressed (br or ' +
    'gzip) for a client that accepts it. Public: needs no key.',
  security: [],
  parameters: [ifNoneMatch, ...queryParameters],
  responses: {
    200: {
      ...listResponse('The items'),
      headers: {
        ...etagHeader,
        ...varyHeader,
        'Content-Encoding': {
          schema: { type: 'string', enum: ['br', 'gzip'] },
          description: 'Present when the list is compressed',
        },
        Link: {
          schema: {
            type: 'string',
            example:
              '</items?genre=Crime&limit=20&cursor=WyI2NzQwYTFmMmMzZDRlNWY2YTdiOGM5ZDAiXQ>; rel="next"',
          },
          description: 'With `limit`, when more items follow: the next page',
        },
      },
    },
    304: { ...notModified, headers: { ...etagHeader, ...varyHeader } },
    400: badQuery,
    503: unavailable,
  },
})

export const getItemRoute = apiRoute({
  method: 'get',
  path: '/items/{id}',
  operationId: 'getItem',
  tags: ['Items'],
  summary: 'Read one item by its id',
  description: 'The item whose `id` (not `_id`) is the given one. Public: needs no key.',
  security: [],
  parameters: [ifNoneMatch],
  request: { params: itemIdParamSchema },
  responses: {
    200: {
      description: 'The item',
      headers: etagHeader,
      content: { 'application/json': { schema: itemSchema } },
    },
    304: notModified,
    400: badId,
    404: notFound,
    503: unavailable,
  },
})

export const createItemRoute = apiRoute(
  guarded(
    {
      method: 'post',
      path: '/items',
      operationId: 'createItem',
      tags: ['Items'],
      summary: 'Create an item; answers the whole list',
      description:
        '`id`, `name` and `genre` are required; other fields are stored as given. Needs ' +
        '`x-apikey` when ITEMS_APIKEY is set.',
      security: writeSecurity,
      middleware: itemBody,
      request: {
        body: { required: true, content: { 'application/json': { schema: newItemSchema } } },
      },
      responses: {
        201: {
          ...listResponse('Created; every item, the new one last'),
          headers: {
            ...etagHeader,
            Location: {
              schema: { type: 'string', example: '/items/tt0111161' },
              description: '/items/<id>',
            },
          },
        },
        400: badBody,
        401: unauthorized,
        403: foreignPage,
        409: errorEntry(
          'An item with that id exists',
          "an item with id 'tt0111161' already exists",
        ),
        408: lateBody,
        413: tooLarge,
        415: notJson,
        503: unavailable,
        507: noSpace,
      },
    },
    { bearer: true },
  ),
)

export const updateItemRoute = apiRoute(
  guarded(
    {
      method: 'put',
      path: '/items/{id}',
      operationId: 'updateItem',
      tags: ['Items'],
      summary: 'Set the given fields on an item (merge); answers the whole list',
      description:
        'Fields absent from the body keep their values; at least one field is required. Needs ' +
        '`x-apikey` when ITEMS_APIKEY is set.',
      security: writeSecurity,
      middleware: itemBody,
      parameters: [ifMatch],
      request: {
        params: itemIdParamSchema,
        body: { required: true, content: { 'application/json': { schema: itemFieldsSchema } } },
      },
      responses: {
        200: listResponse('Updated; every item'),
        400: badBody,
        401: unauthorized,
        403: foreignPage,
        404: notFound,
        409: errorEntry(
          'The body changes id to one another item has',
          "an item with id 'tt0068646' already exists",
        ),
        412: preconditionFailed,
        408: lateBody,
        413: tooLarge,
        415: notJson,
        503: unavailable,
        507: noSpace,
      },
    },
    { bearer: true },
  ),
)

export const deleteItemRoute = apiRoute(
  guarded(
    {
      method: 'delete',
      path: '/items/{id}',
      operationId: 'deleteItem',
      tags: ['Items'],
      summary: 'Delete an item; answers the remaining list',
      description: 'Needs `x-apikey` when ITEMS_APIKEY is set.',
      security: writeSecurity,
      parameters: [ifMatch],
      request: { params: itemIdParamSchema },
      responses: {
        200: listResponse('Deleted; every remaining item'),
        400: badId,
        401: unauthorized,
        403: foreignPage,
        404: notFound,
        412: preconditionFailed,
        503: unavailable,
        507: noSpace,
      },
    },
    { bearer: true },
  ),
)
