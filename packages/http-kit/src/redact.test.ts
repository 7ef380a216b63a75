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

  it.each([
    [
      'mongodb://db/?tls=true&tlsCertificateKeyFile=/etc/key.pem&tlsCertificateKeyFilePassword=kfp1',
      'mongodb://db/?tls=true&tlsCertificateKeyFile=/etc/key.pem&tlsCertificateKeyFilePassword=***',
    ],
    [
      'mongodb://db/?authMechanism=MONGODB-AWS&authMechanismProperties=AWS_SESSION_TOKEN:t%2Bk,SERVICE_NAME:x&w=1',
      'mongodb://db/?authMechanism=MONGODB-AWS&authMechanismProperties=***&w=1',
    ],
    [
      'mongodb://ada:pw@db/?proxyHost=p&proxyPassword=pp1#frag',
      'mongodb://ada:***@db/?proxyHost=p&proxyPassword=***#frag',
    ],
    [
      'https://api.example/v3?api_key=k1&access_token=t1&X-Amz-Security-Token=s1&clientSecret=c1&page=2',
      'https://api.example/v3?api_key=***&access_token=***&X-Amz-Security-Token=***&clientSecret=***&page=2',
    ],
  ])('hides the secret query options of %s, keeping the others', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted)
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

  it('hides secret options in a message, in the forms a driver or a library prints them', () => {
    const message =
      'failed (database at mongodb://db/?tlsCertificateKeyFilePassword=kfp1). ' +
      'Options {"proxyPassword":"pp1", sslPass: \'sp1\'}, AWS_SESSION_TOKEN:tok1, x-apikey=k1'
    expect(redactText(message)).toBe(
      'failed (database at mongodb://db/?tlsCertificateKeyFilePassword=***). ' +
        'Options {"proxyPassword":"***", sslPass: \'***\'}, AWS_SESSION_TOKEN:***, x-apikey=***',
    )
  })

  it('keeps what only looks like an option: a path, a time, a prose colon, a stack', () => {
    const message =
      'open /data/key.pem at 12:30: keyFile=/data/key.pem, the key: rotate it\n' +
      '    at keptApiKey (/srv/mail/api-key-file.ts:45:12)'
    expect(redactText(message)).toBe(message)
  })

  it('replaces a longer secret before one it holds, leaving nothing of it', () => {
    expect(redactText('pre-s3cret-post and s3cret', ['s3cret', 'pre-s3cret-post'])).toBe(
      '*** and ***',
    )
  })

  it('hides a secret where it stands whole, never a part of a longer word', () => {
    expect(redactText('mailgun: mail went out; key=mail, "mail", (mail)', ['mail'])).toBe(
      'mailgun: *** went out; key=***, "***", (***)',
    )
    expect(redactText('Ärger mit Ärger-Key und Ärgernis', ['Ärger'])).toBe(
      '*** mit ***-Key und Ärgernis',
    )
    expect(redactText('a.b+c? and xa.b+c?', ['a.b+c?'])).toBe('*** and xa.b+c?')
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

  it('gives the values of secret query options as written, percent-decoded and form-decoded', () => {
    expect(
      secretsOfUrl(
        'mongodb://db/?w=1&tlsCertificateKeyFilePassword=a%40b+c&tlsCertificateKeyFile=f',
      ),
    ).toEqual(['a%40b+c', 'a@b+c', 'a@b c'])
  })

  it('gives authMechanismProperties whole and its secret properties alone, not the others', () => {
    expect(
      secretsOfUrl(
        'mongodb+srv://db/?authMechanismProperties=SERVICE_NAME:mongodb,AWS_SESSION_TOKEN:t%2F1',
      ),
    ).toEqual([
      'SERVICE_NAME:mongodb,AWS_SESSION_TOKEN:t%2F1',
      'SERVICE_NAME:mongodb,AWS_SESSION_TOKEN:t/1',
      't%2F1',
      't/1',
    ])
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
    const raw = {
      KEYS: ' one,two ',
      URL: 'https://ada:pw@host/?token=tk',
      NAME: 'films',
      OTHER: 'x',
    }
    expect(secretsOfEnv(raw, ['KEYS', 'URL', 'NAME'], new Set(['KEYS']))).toEqual([
      'one,two',
      'one',
      'two',
      'pw',
      'tk',
    ])
  })
})
