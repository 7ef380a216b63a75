// A GET of tagged bytes: 304 or 200, decided in one place.
export { sendTaggedResponse, type Tagged, taggedResponse } from '../conditional-get.js'
