import { describe, expect, it } from 'vitest'
import { parseEnv, settingNames } from './env.js'

describe('parseEnv', () => {
  it('needs nothing: outbox transport, embedded logs, port 4001', () => {
    expect(parseEnv({})).toEqual({
      port: 4001,
      host: '0.0.0.0',
      apiKeys: [],
      transport: { kind: 'outbox' },
      mail: {
        from: 'Movies <no-reply@outbox.local>',
        subject: 'Hello from the movies app',
        text: 'Hello {name},\n\nthank you for getting in touch.',
        timeoutMs: 10_000,
      },
      deta: undefined,
      dataDir: '.data',
      corsOrigins: ['*'],
    })
  })

  it('picks Mailgun when MAIL_APIKEY is set, on the US host unless told otherwise', () => {
    const settings = parseEnv({ MAIL_APIKEY: 'key-1', MAIL_DOMAIN: 'mg.example.com' })
    expect(settings.transport).toEqual({
      kind: 'mailgun',
      apiKey: 'key-1',
      domain: 'mg.example.com',
      baseUrl: 'https://api.mailgun.net',
    })
    expect(settings.mail.from).toBe('Movies <no-reply@mg.example.com>')
  })

  it('takes the EU host for MAIL_REGION=eu, and MAIL_API_URL over both', () => {
    const secrets = { MAIL_APIKEY: 'key-1', MAIL_DOMAIN: 'mg.example.com' }
    expect(parseEnv({ ...secrets, MAIL_REGION: 'eu' }).transport).toMatchObject({
      baseUrl: 'https://api.eu.mailgun.net',
    })
    expect(
      parseEnv({ ...secrets, MAIL_REGION: 'eu', MAIL_API_URL: 'http://127.0.0.1:9999/' }).transport,
    ).toMatchObject({ baseUrl: 'http://127.0.0.1:9999' })
  })

  it('keeps the outbox when MAIL_TRANSPORT=outbox, even with the secrets set', () => {
    const settings = parseEnv({ MAIL_APIKEY: 'k', MAIL_DOMAIN: 'd.com', MAIL_TRANSPORT: 'outbox' })
    expect(settings.transport).toEqual({ kind: 'outbox' })
  })

  it('fails clearly for MAIL_TRANSPORT=mailgun without its secrets, naming what is missing', () => {
    expect(() => parseEnv({ MAIL_TRANSPORT: 'mailgun' })).toThrow(
      'MAIL_TRANSPORT=mailgun needs MAIL_APIKEY and MAIL_DOMAIN',
    )
    expect(() => parseEnv({ MAIL_APIKEY: 'key-1' })).toThrow('needs MAIL_DOMAIN;')
  })

  it('reads API_KEYS and CORS_ORIGINS as comma lists', () => {
    const settings = parseEnv({
      API_KEYS: ' one, two ,,',
      CORS_ORIGINS: 'http://localhost:4000, https://app.example',
    })
    expect(settings.apiKeys).toEqual(['one', 'two'])
    expect(settings.corsOrigins).toEqual(['http://localhost:4000', 'https://app.example'])
  })

  it('points the logs at a Deta Base host when DETA_PROJECT_KEY is set', () => {
    expect(parseEnv({ DETA_PROJECT_KEY: 'a0b1_secret' }).deta).toEqual({
      projectKey: 'a0b1_secret',
      host: 'database.deta.sh',
    })
    expect(
      parseEnv({ DETA_PROJECT_KEY: 'a0b1_secret', DETA_BASE_HOST: 'base.example.com:8443' }).deta,
    ).toEqual({ projectKey: 'a0b1_secret', host: 'base.example.com:8443' })
  })

  it('treats empty values as unset', () => {
    expect(parseEnv({ PORT: '', MAIL_APIKEY: '  ', API_KEYS: '' })).toMatchObject({
      port: 4001,
      transport: { kind: 'outbox' },
      apiKeys: [],
    })
  })

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['MAIL_REGION', 'asia'],
    ['MAIL_API_URL', 'ftp://example.com'],
    ['MAIL_TIMEOUT_MS', '-5'],
    ['MAIL_TRANSPORT', 'smtp'],
    ['DETA_PROJECT_KEY', 'no-underscore'],
    ['DETA_BASE_HOST', 'https://base.example.com'],
    ['CORS_ORIGINS', 'localhost:4000'],
  ])('refuses %s=%s with a message naming the setting', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`invalid settings:\\n  ${name}: `))
  })

  it('never echoes a secret in its message', () => {
    const secret = 'key with spaces SECRET'
    expect(() => parseEnv({ MAIL_APIKEY: secret, MAIL_DOMAIN: 'd.com' })).toThrow(/MAIL_APIKEY/)
    try {
      parseEnv({ MAIL_APIKEY: secret, DETA_PROJECT_KEY: `bad ${secret}` })
    } catch (error) {
      expect(String(error)).not.toContain('SECRET')
    }
  })

  it('names every setting it reads', () => {
    expect([...settingNames].sort()).toEqual(
      [
        'PORT',
        'HOST',
        'API_KEYS',
        'MAIL_APIKEY',
        'MAIL_DOMAIN',
        'MAIL_REGION',
        'MAIL_API_URL',
        'MAIL_FROM',
        'MAIL_SUBJECT',
        'MAIL_TEXT',
        'MAIL_TIMEOUT_MS',
        'MAIL_TRANSPORT',
        'DETA_PROJECT_KEY',
        'DETA_BASE_HOST',
        'DATA_DIR',
        'CORS_ORIGINS',
      ].sort(),
    )
  })
})
