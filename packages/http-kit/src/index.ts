export { allowedMethods, noRouteAnswer } from './allowed-methods.js'
export {
  type ApiKeyVariables,
  acceptApiKeys,
  apiKeyScheme,
  guarded,
  requireApiKey,
} from './api-key.js'
export { withBodyReadFirst } from './body-read-first.js'
export {
  answerTagged,
  noneMatchHits,
  sendTagged,
  type Tagged,
  type TaggedAnswer,
} from './conditional-get.js'
export { type CorsOptions, type CorsPolicy, cors, corsPolicy } from './cors.js'
export { DeadlineExceededError, type DeadlineOptions, withDeadline } from './deadline.js'
export { decodablePath } from './decodable-path.js'
export {
  addDocsRoutes,
  docsFileRoute,
  docsRoute,
  openApiRoute,
  type ServiceInfo,
} from './docs-routes.js'
export {
  describeIssues,
  type ErrorBody,
  errorHandler,
  errorResponse,
  errorSchema,
  type KnownError,
  validationHook,
} from './errors.js'
export { healthApp, healthRoute } from './health.js'
export {
  type HtmlHeaders,
  htmlHeaders,
  inlineHash,
  originOf,
  type PagePolicy,
} from './html-headers.js'
export { jsonObjectBody } from './json-body.js'
export { type JsonBody, jsonBytes } from './json-bytes.js'
export { redactText, redactUrl, secretsOfEnv, secretsOfUrl, shownValue } from './redact.js'
export { type RequestLogVariables, requestIdFor, requestLine, requestLog } from './request-log.js'
export {
  createServiceApp,
  type ServiceAppOptions,
  type ServiceEnv,
} from './service-app.js'
export { type ServiceSettings, serviceSettings, serviceSettingsOf } from './service-settings.js'
export {
  commaList,
  count,
  defineSettings,
  httpUrl,
  milliseconds,
  oneOf,
  origins,
  port,
  type RawEnv,
  SettingsError,
  type SettingsReader,
  text,
} from './settings.js'
export { SortableIdSequence } from './sortable-id.js'
export { StoreFullError, StoreUnavailableError } from './store-errors.js'
export { jsonIssueMessages, parseStrictJson } from './strict-json.js'
export { closeConnection, unreadBodyHeaders } from './unread-body.js'
export { malformedText } from './well-formed-text.js'
