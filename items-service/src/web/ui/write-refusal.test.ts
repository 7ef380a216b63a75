import { describe, expect, it } from 'vitest'
import { ItemsApiError } from './items-api.js'
import { writeRefusal } from './write-refusal.js'

describe('writeRefusal', () => {
  const missing = new ItemsApiError(401, {
    error: "a write needs a signed-in user's token (Authorization: Bearer) or x-apikey",
  })

  it('asks a user who is not signed in to sign in', () => {
    expect(writeRefusal(missing, false)).toBe(
      'Sign in to make changes: the items service takes them from signed-in users only.',
    )
  })

  it("asks a signed-in user to sign in again, with the service's reason", () => {
    const expired = new ItemsApiError(401, {
      error: 'invalid token: the token has expired (exp)',
    })
    expect(writeRefusal(expired, true)).toBe(
      'Your sign-in is no longer accepted (the token has expired (exp)): sign in again.',
    )
  })

  it("says an item is another user's", () => {
    const theirs = new ItemsApiError(403, { error: "item 'tt0068646' belongs to another user" })
    expect(writeRefusal(theirs, true)).toBe(
      "item 'tt0068646' belongs to another user: only the user who added it may change it.",
    )
  })

  it('leaves every other failure to the forms', () => {
    const unavailable = new ItemsApiError(503, { error: "the issuer's keys cannot be fetched now" })
    expect(writeRefusal(unavailable, true)).toBeUndefined()
    expect(writeRefusal(new TypeError('Failed to fetch'), true)).toBeUndefined()
  })
})
