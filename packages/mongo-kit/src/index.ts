export { type BoundedClientOptions, boundedClient } from './bounded-client.js'
export { insertInOrder } from './insert-in-order.js'
export { duplicateKeyCode, isDuplicateKey, withinDeadline } from './mongo-errors.js'
