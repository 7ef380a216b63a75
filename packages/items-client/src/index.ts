export type { ErrorBody, Item, ItemFields, NewItem, ValidationIssue } from './api-types.js'
export { InvalidRequestError } from './invalid-request-error.js'
export type { ItemChange, ItemEvent, ItemsReload } from './item-event.js'
export type { ItemQuery, PageQuery, QueryShape, SortOrder } from './item-query.js'
export type { SubscribeOptions, Subscription } from './item-subscription.js'
export { ItemsApiError } from './items-api-error.js'
export {
  type CallOptions,
  createItemsClient,
  type Fetch,
  type HeadersInput,
  type ItemPage,
  type ItemsClient,
  type ItemsClientOptions,
  type TaggedItem,
  type WriteOptions,
} from './items-client.js'
