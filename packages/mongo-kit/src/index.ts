export { duplicateKeyCode, isDuplicateKey, withinDeadline } from './mongo-errors.js'
