// How a route is declared: its checks, responses and documentation in one object (`apiRoute`),
// the app that mounts it (`ApiApp`), what the OpenAPI document says of a schema, the entries of
// its error responses, and the checks of JSON text a schema runs (well-formed, no lookalike characters). What a Durable Object's routes
// load, apart from the service app (`./app`): a Worker bundle shares a module between the two
// wherever an entry names both.
export { ApiApp } from '../api-app.js'
export type { ApiRoute, ResponseSchema, RouteHandler } from '../api-route.js'
export { apiRoute } from '../api-route.js'
export { errorEntry } from '../error-entry.js'
export { describeIssues } from '../errors.js'
export { invisibleRanges, invisibleText, isVisibleText } from '../invisible-text.js'
export { parsedJsonBody } from '../parsed-json-body.js'
export { documented, named, type SchemaDocs } from '../schema-docs.js'
export { malformedText } from '../well-formed-text.js'
