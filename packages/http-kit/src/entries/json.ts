// JSON in and out: the body check, its strict parser, bytes answered as a route's JSON.
export { jsonObjectBody } from '../json-body.js'
export { jsonBytes } from '../json-bytes.js'
export { parsedJsonBody } from '../parsed-json-body.js'
export { parseStrictJson } from '../strict-json.js'
export { malformedText } from '../well-formed-text.js'
