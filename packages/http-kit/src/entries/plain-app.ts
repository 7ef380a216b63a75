// The service app's middleware without its OpenAPI machinery, for answers with no schema.
export { createPlainServiceApp } from '../plain-service-app.js'
