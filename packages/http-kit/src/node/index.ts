export { closeServer } from './close-server.js'
