export { type BoundedClientOptions, boundedClient } from './bounded-client.js'
export { duplicateKeyCode, isDuplicateKey, withinDeadline } from './mongo-errors.js'
