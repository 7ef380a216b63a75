import { thrownBy } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { parseEnv, secretValues, settingNames } from './env.js'

describe('parseEnv', () => {
  it('needs nothing: outbox transport, embedded logs, port 4001', () => {
    expect(parseEnv({})).toEqual({
      port: 4001,
      host: '127.0.0.1',
      apiKeys: [],
      adminApiKeys: [],
      transport: { kind: 'outbox' },
      mail: {
        from: 'Movies <no-reply@outbox.local>',
        subject: 'Hello from the movies app',
        text: 'Hello {name},\n\nthank you for getting in touch.',
        timeoutMs: 10_000,
        giveUpMs: 30_000,
      },
      rateLimits: {
        perRecipient: { count: 3, windowMs: 3_600_000 },
        perKey: { count: 60, windowMs: 60_000 },
      },
      mailLogRetentionDays: 90,
      deta: undefined,
      mongo: undefined,
      dataDir: '.data',
      corsOrigins: [],
      shutdownTimeoutMs: 10_000,
      bodyTimeoutMs: 30_000,
      metrics: undefined,
      logFormat: 'text',
    })
  })

  it('reads the rate limits, with 0 for none', () => {
    const settings = parseEnv({ RATE_LIMIT_PER_RECIPIENT: '10/1d', RATE_LIMIT_PER_KEY: '0' })
    expect(settings.rateLimits).toEqual({
      perRecipient: { count: 10, windowMs: 86_400_000 },
      perKey: null,
    })
  })

  it.each([
    ['RATE_LIMIT_PER_RECIPIENT', '3 per hour'],
    ['RATE_LIMIT_PER_KEY', '60'],
    ['MAILLOG_RETENTION_DAYS', '0'],
    ['MAIL_GIVE_UP_MS', 'soon'],
  ])('stops the start for a bad %s, naming it', (name, value) => {
    expect(thrownBy(() => parseEnv({ [name]: value }))).toContain(`${name}="${value}": must`)
  })

  it('wants MAIL_GIVE_UP_MS at least as long as MAIL_TIMEOUT_MS', () => {
    expect(
      thrownBy(() => parseEnv({ MAIL_TIMEOUT_MS: '20000', MAIL_GIVE_UP_MS: '5000' })),
    ).toContain('MAIL_GIVE_UP_MS="5000": must be at least MAIL_TIMEOUT_MS (20000)')
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
      API_KEYS: ' first-mail-api-key, second-mail-api-key ,,',
      CORS_ORIGINS: 'http://localhost:4000, https://app.example',
    })
    expect(settings.apiKeys).toEqual(['first-mail-api-key', 'second-mail-api-key'])
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

  it('keeps the state in MongoDB when MAIL_CONNECTION_URL is set, in database data unless named', () => {
    expect(parseEnv({ MAIL_CONNECTION_URL: 'mongodb://db.example:27017' }).mongo).toEqual({
      url: 'mongodb://db.example:27017',
      dbName: 'data',
    })
    const atlas = 'mongodb+srv://mail:pw@cluster0.example.mongodb.net/?retryWrites=true'
    expect(parseEnv({ MAIL_CONNECTION_URL: atlas, MAIL_DB_NAME: 'mail' }).mongo).toEqual({
      url: atlas,
      dbName: 'mail',
    })
  })

  it('shows a bad MAIL_CONNECTION_URL with its password redacted, and lists the password as a secret', () => {
    const url = 'postgres://mail:hunter2@db.example/mail'
    const message = thrownBy(() => parseEnv({ MAIL_CONNECTION_URL: url }))
    expect(message).toContain(
      'MAIL_CONNECTION_URL="postgres://mail:***@db.example/mail": must start with mongodb:// or mongodb+srv://',
    )
    expect(message).not.toContain('hunter2')
    const good = 'mongodb://mail:p%40ss@db.example/'
    expect(secretValues({ MAIL_CONNECTION_URL: good })).toEqual(['p%40ss', 'p@ss'])
  })

  it.each(['my.db', 'a/b', 'with space', 'x'.repeat(64)])('refuses MAIL_DB_NAME=%s', (name) => {
    expect(thrownBy(() => parseEnv({ MAIL_DB_NAME: name }))).toContain(
      `MAIL_DB_NAME=${JSON.stringify(name)}: must be a MongoDB database name`,
    )
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
    ['MAIL_API_URL', 'not a url'],
    ['MAIL_TIMEOUT_MS', '-5'],
    ['SHUTDOWN_TIMEOUT_MS', '0'],
    ['MAIL_TRANSPORT', 'smtp'],
    ['DETA_BASE_HOST', 'https://base.example.com'],
    ['CORS_ORIGINS', 'localhost:4000'],
  ])('refuses %s=%s with a message naming the setting and its value', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(
      `invalid settings:\n  ${name}=${JSON.stringify(value)}: `,
    )
  })

  it('takes the timeout of a stop from SHUTDOWN_TIMEOUT_MS', () => {
    expect(parseEnv({ SHUTDOWN_TIMEOUT_MS: '1500' }).shutdownTimeoutMs).toBe(1500)
  })

  it('reads MAILGUN_WEBHOOK_SIGNING_KEY as a secret: kept, and among the values to redact', () => {
    const env = { MAILGUN_WEBHOOK_SIGNING_KEY: 'key-signing-9f1' }
    expect(parseEnv(env).webhookSigningKey).toBe('key-signing-9f1')
    expect(parseEnv({}).webhookSigningKey).toBeUndefined()
    expect(secretValues(env)).toContain('key-signing-9f1')
  })

  it('never echoes a key in its message, only names it', () => {
    const secret = 'key with spaces SECRET'
    const message = thrownBy(() =>
      parseEnv({
        API_KEYS: `a-fine-mail-api-key,${secret}`,
        MAIL_APIKEY: secret,
        MAILGUN_WEBHOOK_SIGNING_KEY: secret,
        DETA_PROJECT_KEY: `no-underscore ${secret}`,
      }),
    )
    expect(message).not.toContain('SECRET')
    for (const name of [
      'API_KEYS',
      'MAIL_APIKEY',
      'MAILGUN_WEBHOOK_SIGNING_KEY',
      'DETA_PROJECT_KEY',
    ]) {
      expect(message).toContain(`  ${name} (value not shown): `)
    }
  })

  it('shows a bad MAIL_API_URL with its password redacted, keeping user and host', () => {
    const message = thrownBy(() =>
      parseEnv({ MAIL_API_URL: 'ftp://relay:hunter2@mail.example/v3' }),
    )
    expect(message).toContain(
      'MAIL_API_URL="ftp://relay:***@mail.example/v3": must be an http(s) URL',
    )
    expect(message).not.toContain('hunter2')
  })

  it('refuses credentials in MAIL_API_URL, which fetch would refuse at every send', () => {
    const message = thrownBy(() =>
      parseEnv({
        MAIL_APIKEY: 'k',
        MAIL_DOMAIN: 'd.com',
        MAIL_API_URL: 'https://user:pw@mailgun.example',
      }),
    )
    expect(message).toContain('MAIL_API_URL="https://user:***@mailgun.example": must not hold')
    expect(message).not.toContain(':pw@')
    for (const url of ['https://token@mailgun.example', 'https://:token@mailgun.example']) {
      expect(() => parseEnv({ MAIL_API_URL: url })).toThrow(
        'MAIL_API_URL="https://***@mailgun.example": must not hold',
      )
    }
  })

  it('lists the secrets of an environment, for redacting what libraries print', () => {
    expect(
      secretValues({
        API_KEYS: 'first-mail-api-key, second-mail-api-key',
        ADMIN_API_KEYS: 'second-mail-api-key',
        MAIL_APIKEY: 'key-1',
        DETA_PROJECT_KEY: 'a0_secret',
        MAIL_API_URL: 'https://user:p%40ss@host',
      }),
    ).toEqual([
      'first-mail-api-key, second-mail-api-key',
      'first-mail-api-key',
      'second-mail-api-key',
      'second-mail-api-key',
      'key-1',
      'p%40ss',
      'p@ss',
      'a0_secret',
    ])
  })

  it('names every setting it reads', () => {
    expect([...settingNames].sort()).toEqual(
      'PORT HOST API_KEYS ADMIN_API_KEYS MAIL_APIKEY MAILGUN_WEBHOOK_SIGNING_KEY MAIL_DOMAIN MAIL_REGION MAIL_API_URL MAIL_FROM MAIL_SUBJECT MAIL_TEXT MAIL_TIMEOUT_MS MAIL_GIVE_UP_MS RATE_LIMIT_PER_RECIPIENT RATE_LIMIT_PER_KEY MAILLOG_RETENTION_DAYS SHUTDOWN_TIMEOUT_MS BODY_TIMEOUT_MS METRICS_PORT METRICS_HOST LOG_FORMAT MAIL_TRANSPORT DETA_PROJECT_KEY DETA_BASE_HOST MAIL_CONNECTION_URL MAIL_DB_NAME DATA_DIR CORS_ORIGINS'
        .split(' ')
        .sort(),
    )
  })
})
