/**
 * Largest accepted item body. A module of its own: the Worker reads each body up to it before
 * handing the request on, and loads nothing of the routes to know it.
 */
export const maxItemBodyBytes = 64 * 1024
