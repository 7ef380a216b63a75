export type {
  DeliveryStatus,
  ErrorBody,
  MailEvent,
  MailLogRecord,
  ProviderAnswer,
  SendMailRequest,
  ValidationIssue,
} from './api-types.js'
export { MailApiError } from './mail-api-error.js'
export {
  type CallOptions,
  createMailClient,
  type LogQuery,
  type MailClient,
  type MailClientOptions,
  type MailLogPage,
  type SendOptions,
} from './mail-client.js'
export type { Fetch, HeadersInput } from './request-headers.js'
export { finalStatuses, type WaitOptions } from './wait-for-status.js'
export type { RetryOptions } from './with-retries.js'
