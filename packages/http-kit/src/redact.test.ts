import { describe, expect, it } from 'vitest'
import { redactText, redactUrl, secretsOfEnv, secretsOfUrl, shownValue } from './redact.js'

describe('redactUrl', () => {
  it.each([
    ['mongodb://ada:s3cret@db.example:27017/films', 'mongodb://ada:***@db.example:27017/films'],
    [
      'mongodb+srv://ada:s3cret@cluster.example.net/?w=1',
      'mongodb+srv://ada:***@cluster.example.net/?w=1',
    ],
    ['postgres://user:pw@host/db', 'postgres://user:***@host/db'],
    ['https://ghp_token123@git.example/repo', 'https://***@git.example/repo'],
    ['https://:token123@api.example', 'https://***@api.example'],
    ['mongodb://ada:p@ss/w#rd@db.example/', 'mongodb://ada:***@db.example/'],
    ['mongodb://ada:p%40ss@h1:1,h2:2/db', 'mongodb://ada:***@h1:1,h2:2/db'],
  ])('hides the password of %s but keeps user and host', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted)
  })

  it('hides a password with a space, which no URL pattern can delimit', () => {
    expect(redactUrl('mongodb://ada:pa ss@db.example/')).not.toContain('pa ss')
    expect(redactUrl('mongodb://ada:pa ss@db.example/')).toContain('db.example')
  })

  it('leaves a URL without credentials as it is', () => {
    for (const url of [
      'http://localhost:4001',
      '/mail',
      'mongodb://db.example/?x=1',
      'not a url',
    ]) {
      expect(redactUrl(url)).toBe(url)
    }
  })
})

describe('redactText', () => {
  it('hides the userinfo of every URL in a message, quoted or not', () => {
    const message =
      'cannot reach "mongodb://ada:one@a.example/" nor mongodb://bob:two@b.example:1, giving up'
    expect(redactText(message)).toBe(
      'cannot reach "mongodb://ada:***@a.example/" nor mongodb://bob:***@b.example:1, giving up',
    )
  })

  it('hides each given secret wherever it appears, say decoded by a driver', () => {
    expect(redactText('auth failed for ada with p@ss', ['p%40ss', 'p@ss'])).toBe(
      'auth failed for ada with ***',
    )
  })

  it('ignores empty secrets', () => {
    expect(redactText('nothing to hide', [''])).toBe('nothing to hide')
  })
})

describe('secretsOfUrl', () => {
  it('gives the password as written and decoded, or the token', () => {
    expect(secretsOfUrl('mongodb://ada:p%40ss@db/')).toEqual(['p%40ss', 'p@ss'])
    expect(secretsOfUrl('https://token123@api.example')).toEqual(['token123'])
    expect(secretsOfUrl('mongodb://db.example/')).toEqual([])
    expect(secretsOfUrl('/mail')).toEqual([])
  })
})

describe('shownValue', () => {
  it("shows a setting's value quoted, any URL's password redacted, and a key's not at all", () => {
    expect(shownValue('abc', false)).toBe('="abc"')
    expect(shownValue('postgres://ada:pw@db/films', false)).toBe('="postgres://ada:***@db/films"')
    expect(shownValue('s3cret', true)).toBe(' (value not shown)')
  })
})

describe('secretsOfEnv', () => {
  it('gives every key, each item of a comma list too, and the passwords of URLs', () => {
    const raw = { KEYS: ' one,two ', URL: 'https://ada:pw@host', NAME: 'films', OTHER: 'x' }
    expect(secretsOfEnv(raw, ['KEYS', 'URL', 'NAME'], new Set(['KEYS']))).toEqual([
      'one,two',
      'one',
      'two',
      'pw',
    ])
  })
})
