import { describe, expect, it } from 'vitest'
import { surelyUnsent } from './unsent-errors.js'

/** A failed fetch as Node's reports it: a TypeError whose cause names the socket's code. */
const nodeFailure = (code: string, message = code) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) })

describe('surelyUnsent', () => {
  it.each([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'UND_ERR_CONNECT_TIMEOUT',
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
  ])('takes a connection never made (%s) as nothing sent', (code) => {
    expect(surelyUnsent(nodeFailure(code))).toBe(true)
  })

  it.each(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'ETIMEDOUT'])(
    'takes a connection lost once made (%s) as an unknown outcome',
    (code) => {
      expect(surelyUnsent(nodeFailure(code))).toBe(false)
    },
  )

  it("reads the Workers runtime's messages, which name no code", () => {
    expect(surelyUnsent(new TypeError('Network connection lost.'))).toBe(false)
    expect(surelyUnsent(new Error('disconnected: connect(): Connection refused'))).toBe(true)
    expect(surelyUnsent(new TypeError('fetch failed', { cause: new Error('bad port') }))).toBe(true)
  })

  it('takes what it does not know as an unknown outcome', () => {
    expect(surelyUnsent(new Error('something else'))).toBe(false)
    expect(surelyUnsent('a string')).toBe(false)
  })
})
