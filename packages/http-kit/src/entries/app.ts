// The service app and what its routes' handlers and middleware use: the API-key guard, JSON
// bodies in (the body check, its strict parser) and out, a GET decided between 304 and 200, and
// the health route. How a route is declared is `./routes`.
export { type ApiKeyVariables, guarded, type Writer } from '../api-key.js'
export type { TokenVerdict, Users, VerifyToken } from '../bearer-token.js'
export { sendTaggedResponse, type Tagged, taggedResponse } from '../conditional-get.js'
export { healthApp } from '../health.js'
export { jsonObjectBody } from '../json-body.js'
export { jsonBytes } from '../json-bytes.js'
export { observers, type RequestRecord } from '../request-log.js'
export { createServiceApp, type ServiceAppOptions, type ServiceEnv } from '../service-app.js'
export { parseStrictJson } from '../strict-json.js'
