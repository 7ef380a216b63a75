// The API-key guard, declared in a route's own config.
export { guarded } from '../api-key.js'
