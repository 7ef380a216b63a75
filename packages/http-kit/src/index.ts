export { redactText, redactUrl, secretsOfEnv, secretsOfUrl, shownValue } from './redact.js'
export { closeConnection, unreadBodyHeaders } from './unread-body.js'
