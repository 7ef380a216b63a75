export { BuiltEntry, type BuiltEntryOptions, type Exit, type FailedStart } from './built-entry.js'
export { type LargeUploadResult, largeUpload } from './large-upload.js'
export { killBuiltEntries } from './running-children.js'
