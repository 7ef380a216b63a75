export type { ErrorBody, Item, ItemFields, NewItem, ValidationIssue } from './api-types.js'
export type {
  CallOptions,
  ItemPage,
  ItemsClient,
  ItemsClientOptions,
  TaggedItem,
  WriteOptions,
} from './client-types.js'
export { InvalidRequestError } from './invalid-request-error.js'
export type { ItemChange, ItemEvent, ItemsReload } from './item-event.js'
export type { ItemQuery, PageQuery, QueryShape, SortOrder } from './item-query.js'
export type { SubscribeOptions, Subscription } from './item-subscription.js'
export { ItemsApiError } from './items-api-error.js'
export { createItemsClient } from './items-client.js'
export type { Fetch, HeadersInput } from './request-headers.js'
