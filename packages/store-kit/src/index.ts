export { DeadlineExceededError, withDeadline } from './deadline.js'
export { SortableIdSequence } from './sortable-id.js'
export { StoreFullError, StoreUnavailableError } from './store-errors.js'
