export { Compression } from './compression.js'
export { openFilesLimit, withinOpenFiles } from './open-files.js'
export { runNodeService } from './run-service.js'
