// The app every route of both micros is added to, and the error answers routes declare.
export { errorEntry } from '../error-entry.js'
export { describeIssues } from '../errors.js'
export { createServiceApp } from '../service-app.js'
