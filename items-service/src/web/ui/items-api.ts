// The published client (packages/items-client), bundled into the page from its TypeScript
// source. Imported by path, not by its package name: the package's exports point at its dist/,
// which CI has not built yet when it type-checks, and which a build of this micro alone (the
// Spacefile's, the Dockerfile's) never builds.
export {
  createItemsClient,
  type ErrorBody,
  type Item,
  type ItemChange,
  ItemsApiError,
  type ItemsClient,
  type TaggedItem,
} from '../../../../packages/items-client/src/index.js'
