import { describe, expect, it } from 'vitest'
import { callbackOf } from './sign-in.js'

describe('callbackOf', () => {
  it("knows the issuer's answer to a sign-in, granted or not", () => {
    expect(callbackOf('http://app.test/?code=c1&state=s1&iss=http%3A%2F%2Fid.test')).toBe('sign-in')
    expect(callbackOf('http://app.test/?error=access_denied&state=s1')).toBe('sign-in')
  })

  it('knows the way back from a sign-out', () => {
    expect(callbackOf('http://app.test/?state=s2')).toBe('sign-out')
  })

  it('leaves any other page load alone', () => {
    expect(callbackOf('http://app.test/')).toBeUndefined()
    expect(callbackOf('http://app.test/?code=c1')).toBeUndefined()
  })
})
