import { describe, expect, it } from 'vitest'
import { addressProblem, asciiDomain, recipientOf } from './inbox.js'

describe('recipientOf', () => {
  it('counts an address in lower case, the local part included', () => {
    expect(recipientOf('Ada@Example.COM')).toBe('ada@example.com')
    expect(recipientOf('VICTIM@gmail.com')).toBe(recipientOf('victim@gmail.com'))
  })

  it('removes the +tag of the local part, but not of the domain', () => {
    expect(recipientOf('victim+1@gmail.com')).toBe('victim@gmail.com')
    expect(recipientOf('Victim+news+more@Gmail.com')).toBe('victim@gmail.com')
  })

  it('keeps the dots, which only some providers ignore', () => {
    expect(recipientOf('v.ictim@gmail.com')).toBe('v.ictim@gmail.com')
  })

  it('keeps a local part that starts with +: it has no tag to remove', () => {
    expect(recipientOf('+1@example.com')).toBe('+1@example.com')
  })

  it('counts the domain in its IDNA ASCII form: one DNS name, one count', () => {
    const inbox = 'ada@xn--mnchen-3ya.de'
    for (const email of [
      'ada@münchen.de',
      'ada@MÜNCHEN.DE',
      'ada@xn--mnchen-3ya.de',
      'Ada@ｍünchen.de',
    ]) {
      expect([email, recipientOf(email)]).toEqual([email, inbox])
    }
    expect(recipientOf('bob@ｅxample.com')).toBe('bob@example.com')
    expect(recipientOf('bob+x@ＥＸＡＭＰＬＥ．ｃｏｍ')).toBe('bob@example.com')
  })

  it('keeps the letters of the local part as they are beyond lower case', () => {
    expect(recipientOf('ÄDA@example.com')).toBe('äda@example.com')
  })
})

describe('asciiDomain', () => {
  it('maps as the URL parser does (UTS #46), and refuses what IDNA refuses', () => {
    expect(asciiDomain('faß.de')).toBe('xn--fa-hia.de')
    expect(asciiDomain('xn--a.de')).toBeUndefined()
  })
})

describe('addressProblem', () => {
  const label = (length: number) => 'a'.repeat(length)

  it('takes a local part of 64 octets and refuses one of 65', () => {
    expect(addressProblem(`${label(64)}@example.com`)).toBeUndefined()
    expect(addressProblem(`${label(65)}@example.com`)).toMatch(/local part of at most 64 octets/)
    // 33 characters of two octets each: 66 octets.
    expect(addressProblem(`${'ä'.repeat(33)}@example.com`)).toMatch(/at most 64 octets/)
  })

  it('takes a label of 63 and refuses one of 64, counted in its ASCII form', () => {
    expect(addressProblem(`ada@${label(63)}.com`)).toBeUndefined()
    expect(addressProblem(`ada@${label(64)}.com`)).toMatch(/labels of at most 63/)
    // 60 characters as given, more than 63 once in Punycode.
    expect(addressProblem(`ada@${'ü'.repeat(60)}.de`)).toMatch(/labels of at most 63/)
  })

  it('refuses an address over 254 octets once its domain is in ASCII form', () => {
    const domain = `${label(63)}.${label(63)}.${label(63)}.${label(50)}`
    expect(addressProblem(`${label(64)}@${domain}`)).toMatch(/at most 254 octets/)
    expect(addressProblem(`${label(10)}@${domain}`)).toBeUndefined()
  })

  it('refuses a domain IDNA refuses', () => {
    expect(addressProblem('ada@xn--a.de')).toMatch(/IDNA/)
  })
})
