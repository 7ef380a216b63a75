// How a route is declared (its checks, answers and documentation in one object), the app that
// mounts it, and what the OpenAPI document says of a schema.
export { ApiApp } from '../api-app.js'
export type { ApiRoute, ResponseSchema, RouteHandler } from '../api-route.js'
export { apiRoute } from '../api-route.js'
export { documented, named, type SchemaDocs } from '../schema-docs.js'
