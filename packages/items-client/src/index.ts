export type { ErrorBody, Item, ItemFields, StoredItem, ValidationIssue } from './api-types.js'
export { ItemsApiError } from './items-api-error.js'
export {
  type CallOptions,
  createItemsClient,
  type Fetch,
  type HeadersInput,
  type ItemsClient,
  type ItemsClientOptions,
} from './items-client.js'
