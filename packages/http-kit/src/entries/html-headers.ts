// The headers of an HTML page: its Content-Security-Policy and the rest.
export { htmlHeaders } from '../html-headers.js'
