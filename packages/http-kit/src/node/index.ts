export { Compression } from './compression.js'
export { openFilesLimit, withinOpenFiles } from './open-files.js'
export { type NodeService, runNodeService, type ServiceStart } from './run-service.js'
