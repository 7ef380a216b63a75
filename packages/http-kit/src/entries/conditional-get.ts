// A GET of tagged bytes: 304 or 200, decided in one place.
export { answerTagged, sendTagged, type Tagged } from '../conditional-get.js'
