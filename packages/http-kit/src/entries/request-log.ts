// Request ids and log lines, for what answers outside the service app (a Durable Object).
export { answerOutsideApp } from '../request-log.js'
