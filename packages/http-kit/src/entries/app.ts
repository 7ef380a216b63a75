// The app every route of both micros is added to, and the error answers routes declare.
export { errorResponse } from '../error-response.js'
export { describeIssues } from '../errors.js'
export { createServiceApp } from '../service-app.js'
