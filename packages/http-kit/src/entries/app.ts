// The app every route of both micros is added to, and the error answers routes declare.
export { describeIssues, errorResponse } from '../errors.js'
export { createServiceApp } from '../service-app.js'
