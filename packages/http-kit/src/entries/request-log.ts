// Request ids and log lines, for what answers outside the service app (a Durable Object).
export { responseOutsideApp } from '../request-log.js'
