import { createRoute } from '@hono/zod-openapi'
import { errorResponse, guarded, jsonObjectBody } from '@movies-and-mail/http-kit'
import {
  itemFieldsSchema,
  itemIdParamSchema,
  itemListSchema,
  itemSchema,
  newItemSchema,
} from './item.schema.js'
import { rejectReservedFields } from './reject-reserved-fields.js'

/** Largest accepted item body. */
export const maxItemBodyBytes = 64 * 1024

/** What a write's body must pass, in order, after the API-key guard and before the validator. */
const itemBody = [...jsonObjectBody({ maxBytes: maxItemBodyBytes }), rejectReservedFields]

const listResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: itemListSchema } },
})

const badBody = errorResponse('Body is not JSON, not an object, or fails validation')
const unauthorized = errorResponse('`x-apikey` is missing or wrong while ITEMS_APIKEY is set')
const notFound = errorResponse('No item has that id')
const unavailable = errorResponse('The database did not answer')
const noSpace = errorResponse('The disk is full; nothing of the write was stored')
/** Writes need `x-apikey` only when ITEMS_APIKEY is set, hence the empty alternative. */
const writeSecurity: Record<string, string[]>[] = [{ ApiKey: [] }, {}]

export const listItemsRoute = createRoute({
  method: 'get',
  path: '/items',
  summary: 'List every item in insertion order',
  responses: { 200: listResponse('Every item'), 503: unavailable },
})

export const getItemRoute = createRoute({
  method: 'get',
  path: '/items/{id}',
  summary: 'Read one item by its id',
  request: { params: itemIdParamSchema },
  responses: {
    200: { description: 'The item', content: { 'application/json': { schema: itemSchema } } },
    400: errorResponse('The id is not a valid item id'),
    404: notFound,
    503: unavailable,
  },
})

export const createItemRoute = createRoute(
  guarded({
    method: 'post',
    path: '/items',
    summary: 'Create an item; answers the whole list',
    security: writeSecurity,
    middleware: itemBody,
    request: {
      body: { required: true, content: { 'application/json': { schema: newItemSchema } } },
    },
    responses: {
      201: {
        ...listResponse('Created; every item, the new one last'),
        headers: { Location: { schema: { type: 'string' }, description: '/items/<id>' } },
      },
      400: badBody,
      401: unauthorized,
      409: errorResponse('An item with that id exists'),
      413: errorResponse('Body larger than 64 KiB'),
      415: errorResponse('Content-Type is not application/json'),
      503: unavailable,
      507: noSpace,
    },
  }),
)

export const updateItemRoute = createRoute(
  guarded({
    method: 'put',
    path: '/items/{id}',
    summary: 'Set the given fields on an item (merge); answers the whole list',
    security: writeSecurity,
    middleware: itemBody,
    request: {
      params: itemIdParamSchema,
      body: { required: true, content: { 'application/json': { schema: itemFieldsSchema } } },
    },
    responses: {
      200: listResponse('Updated; every item'),
      400: badBody,
      401: unauthorized,
      404: notFound,
      409: errorResponse('The body changes id to one another item has'),
      413: errorResponse('Body larger than 64 KiB'),
      415: errorResponse('Content-Type is not application/json'),
      503: unavailable,
      507: noSpace,
    },
  }),
)

export const deleteItemRoute = createRoute(
  guarded({
    method: 'delete',
    path: '/items/{id}',
    summary: 'Delete an item; answers the remaining list',
    security: writeSecurity,
    request: { params: itemIdParamSchema },
    responses: {
      200: listResponse('Deleted; every remaining item'),
      400: errorResponse('The id is not a valid item id'),
      401: unauthorized,
      404: notFound,
      503: unavailable,
      507: noSpace,
    },
  }),
)
