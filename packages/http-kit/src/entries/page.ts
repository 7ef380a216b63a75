// An HTML page's app and headers: the service app's middleware without the routes' schemas and
// zod (a Worker that starts for a page view evaluates none of them), and the page's
// Content-Security-Policy with the rest of its headers.
export { htmlHeaders } from '../html-headers.js'
export { createPlainServiceApp } from '../plain-service-app.js'
