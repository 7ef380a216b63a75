// Secrets kept out of what is logged or shown.
export { redactText, secretsOfUrl } from '../redact.js'
