// What only a Worker needs around the app: a request's body read before the app runs (and the
// response to one that did not arrive), a response made outside the app with its request id and
// log object, and which bodies the Workers runtime sends as a Blob. The app's log as objects and
// Analytics Engine data points is `./workers-monitoring`: only the app's module loads it.

export { blobBodyBytes, worthABlob } from '../blob-bodies.js'
export {
  bodyDeadlineMs,
  type UnreadBody,
  unreadBodyResponse,
  withBodyReadFirst,
} from '../body-read-first.js'
export { responseOutsideApp } from '../worker-log.js'
