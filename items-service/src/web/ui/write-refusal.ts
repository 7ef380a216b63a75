import { ItemsApiError } from './items-api.js'

/**
 * What the page says of a write the service refused for who sent it, where users sign in: a 401
 * asks a user who is not signed in to sign in, and one who is to sign in again (their token
 * expired, or the service could not verify it: its reason is said); a 403 says the item is
 * another user's. Nothing for any other error, which the forms word as before (`failureOf`).
 */
export function writeRefusal(error: unknown, signedIn: boolean): string | undefined {
  if (!(error instanceof ItemsApiError)) return undefined
  if (error.status === 401 && !signedIn) {
    return 'Sign in to make changes: the items service takes them from signed-in users only.'
  }
  if (error.status === 401) {
    const reason = error.body.error.replace(/^invalid token: /, '')
    return `Your sign-in is no longer accepted (${reason}): sign in again.`
  }
  if (error.status === 403) return `${error.body.error}: only the user who added it may change it.`
  return undefined
}
