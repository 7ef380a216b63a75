export { batchedLines } from './batched-lines.js'
export { type Closed, closeServer } from './close-server.js'
export {
  type Compressed,
  Compression,
  type ContentCoding,
  codedTag,
  defaultEncoders,
  type Encoders,
  parseAcceptEncoding,
} from './compression.js'
export { type Listening, listen, reachableAt } from './listen.js'
export { openFilesLimit, withinOpenFiles } from './open-files.js'
export { type StopOptions, stopOnSignals } from './stop-on-signals.js'
