import { describe, expect, it } from 'vitest'
import { composeMail } from './mailer.js'
import { reasonPhrase } from './reason-phrases.js'

describe('composeMail', () => {
  it('fills every {name} in the text and leaves from and subject as set', () => {
    const template = { from: 'a@example.com', subject: 'Hi {name}', text: '{name}, {name}!' }
    expect(composeMail(template, { email: 'ada@example.com', name: 'Ada' })).toEqual({
      from: 'a@example.com',
      to: 'ada@example.com',
      subject: 'Hi {name}',
      text: 'Ada, Ada!',
    })
  })

  it('inserts a name holding $& or $1 literally', () => {
    const mail = composeMail(
      { from: '', subject: '', text: 'Hello {name}' },
      {
        email: 'a@example.com',
        name: '$& $1',
      },
    )
    expect(mail.text).toBe('Hello $& $1')
  })
})

describe('reasonPhrase', () => {
  it('gives the standard phrase, or the class of an unknown status', () => {
    expect(reasonPhrase(429)).toBe('Too Many Requests')
    expect(reasonPhrase(401)).toBe('Unauthorized')
    expect(reasonPhrase(599)).toBe('Server Error')
    expect(reasonPhrase(499)).toBe('Client Error')
  })
})
