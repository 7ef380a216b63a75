import { thrownBy } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { parseEnv, secretValues, settingNames } from './env.js'

const defaults = {
  port: 4000,
  host: '127.0.0.1',
  connectionUrl: undefined,
  dbName: 'data',
  collectionName: 'movies',
  dataDir: '.data',
  apiKey: undefined,
  users: undefined,
  corsOrigins: [],
  connectTimeoutMs: 10_000,
  shutdownTimeoutMs: 10_000,
  mailServiceUrl: 'http://localhost:4001',
  bodyTimeoutMs: 30_000,
  metrics: undefined,
  logFormat: 'text',
  bounds: { maxItems: 100_000, maxBytes: 33_554_432 },
  events: {
    maxStreams: 10_000,
    maxStreamsPerClient: 20,
    idleCloseMs: 600_000,
    heartbeatMs: 15_000,
    clientAddressHeader: undefined,
  },
}

describe('parseEnv', () => {
  it('gives every setting its default when nothing is set', () => {
    expect(parseEnv({})).toEqual(defaults)
  })

  it('reads every setting', () => {
    const settings = parseEnv({
      PORT: '8080',
      HOST: '0.0.0.0',
      CONNECTION_URL: 'mongodb+srv://user:pw@cluster.example.net/?retryWrites=true',
      DB_NAME: 'films',
      COLLECTION_NAME: 'catalogue',
      DATA_DIR: '/var/lib/items',
      ITEMS_APIKEY: 'items-k3y-of-the-test',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      CONNECT_TIMEOUT_MS: '1500',
      SHUTDOWN_TIMEOUT_MS: '2500',
      MAIL_SERVICE_URL: 'https://mail.example',
      EVENTS_MAX_STREAMS: '50',
      EVENTS_MAX_STREAMS_PER_CLIENT: '3',
      EVENTS_IDLE_CLOSE_MS: '60000',
      EVENTS_HEARTBEAT_MS: '30000',
      CLIENT_IP_HEADER: 'X-Forwarded-For',
      BODY_TIMEOUT_MS: '5000',
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
      LOG_FORMAT: 'json',
      ITEMS_MAX_COUNT: '500',
      ITEMS_MAX_BYTES: '100000',
      ITEMS_JWT_ISSUER: 'https://id.example/',
      ITEMS_JWT_AUDIENCE: 'items',
      ITEMS_JWKS_URL: 'https://id.example/keys',
      ITEMS_OIDC_CLIENT_ID: 'web-app',
    })
    expect(settings).toStrictEqual({
      port: 8080,
      host: '0.0.0.0',
      connectionUrl: 'mongodb+srv://user:pw@cluster.example.net/?retryWrites=true',
      dbName: 'films',
      collectionName: 'catalogue',
      dataDir: '/var/lib/items',
      apiKey: 'items-k3y-of-the-test',
      users: {
        issuer: 'https://id.example/',
        audience: 'items',
        jwksUrl: 'https://id.example/keys',
        clientId: 'web-app',
      },
      corsOrigins: ['https://a.example', 'https://b.example'],
      connectTimeoutMs: 1500,
      shutdownTimeoutMs: 2500,
      mailServiceUrl: 'https://mail.example',
      bodyTimeoutMs: 5000,
      metrics: { port: 9464, host: '0.0.0.0' },
      logFormat: 'json',
      bounds: { maxItems: 500, maxBytes: 100_000 },
      events: {
        maxStreams: 50,
        maxStreamsPerClient: 3,
        idleCloseMs: 60_000,
        heartbeatMs: 30_000,
        clientAddressHeader: 'x-forwarded-for',
      },
    })
  })

  it('wants ITEMS_JWT_ISSUER and ITEMS_JWT_AUDIENCE together, and the others with them', () => {
    expect(thrownBy(() => parseEnv({ ITEMS_JWT_ISSUER: 'https://id.example' }))).toContain(
      'ITEMS_JWT_AUDIENCE: must be set with ITEMS_JWT_ISSUER',
    )
    expect(thrownBy(() => parseEnv({ ITEMS_JWT_AUDIENCE: 'items' }))).toContain(
      'ITEMS_JWT_ISSUER: must be set with ITEMS_JWT_AUDIENCE',
    )
    expect(thrownBy(() => parseEnv({ ITEMS_JWKS_URL: 'https://id.example/keys' }))).toContain(
      'ITEMS_JWT_ISSUER: must be set with ITEMS_JWKS_URL',
    )
    expect(thrownBy(() => parseEnv({ ITEMS_OIDC_CLIENT_ID: 'web-app' }))).toContain(
      'ITEMS_JWT_ISSUER: must be set with ITEMS_OIDC_CLIENT_ID',
    )
    expect(
      thrownBy(() => parseEnv({ ITEMS_JWT_ISSUER: 'id.example', ITEMS_JWT_AUDIENCE: 'a' })),
    ).toContain('ITEMS_JWT_ISSUER="id.example": must be an http(s) URL')
    expect(
      parseEnv({ ITEMS_JWT_ISSUER: 'https://id.example', ITEMS_JWT_AUDIENCE: 'a' }).users,
    ).toEqual({
      issuer: 'https://id.example',
      audience: 'a',
      jwksUrl: undefined,
      clientId: undefined,
    })
  })

  it('refuses an ITEMS_APIKEY shorter than 16 characters, naming it but not the key', () => {
    const message = thrownBy(() => parseEnv({ ITEMS_APIKEY: 'movies-key-15ch' }))
    expect(message).toBe(
      'SettingsError: invalid settings:\n  ITEMS_APIKEY (value not shown): ' +
        'must be at least 16 characters long, so that it cannot be guessed',
    )
    expect(parseEnv({ ITEMS_APIKEY: 'movies-key-16chr' }).apiKey).toBe('movies-key-16chr')
    // Counted as a person counts characters, and after the spaces around it are trimmed.
    expect(thrownBy(() => parseEnv({ ITEMS_APIKEY: `  ${'🔑'.repeat(15)}  ` }))).toContain(
      'ITEMS_APIKEY (value not shown): must be at least 16',
    )
  })

  it('accepts PORT=0, which asks the system for a free port', () => {
    expect(parseEnv({ PORT: '0' }).port).toBe(0)
  })

  it('falls back to the default for an empty or blank setting', () => {
    const blank = Object.fromEntries(settingNames.map((name) => [name, '']))
    expect(parseEnv(blank)).toEqual(defaults)
    const spaces = Object.fromEntries(settingNames.map((name) => [name, '  ']))
    expect(parseEnv(spaces)).toEqual(defaults)
  })

  it('ignores variables that are not its settings', () => {
    expect(parseEnv({ PATH: '/usr/bin', NODE_ENV: 'production' })).toEqual(defaults)
  })

  // As a shell would set them: NAME=value.
  it.each(
    [
      'PORT=abc',
      'PORT=70000',
      'PORT=80.5',
      'PORT=-1',
      'CONNECTION_URL=http://x',
      'CONNECTION_URL=localhost:27017',
      'CONNECT_TIMEOUT_MS=0',
      'CONNECT_TIMEOUT_MS=soon',
      'SHUTDOWN_TIMEOUT_MS=0',
      'SHUTDOWN_TIMEOUT_MS=1.5',
      'CORS_ORIGINS= , ',
      'MAIL_SERVICE_URL=not a url',
      'EVENTS_MAX_STREAMS=0',
      'EVENTS_MAX_STREAMS=many',
      'EVENTS_HEARTBEAT_MS=0',
    ].map((assignment) => assignment.split(/=(.*)/s, 2) as [string, string]),
  )('refuses %s=%s with a message naming the setting and its value', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(
      new RegExp(
        `^invalid settings:\\n  ${name}=${JSON.stringify(value).replace(/[.*+?()[\]\\]/g, '\\$&')}: `,
      ),
    )
  })

  it('says what a good value looks like', () => {
    expect(() => parseEnv({ PORT: 'abc' })).toThrow(
      'PORT="abc": must be a whole number from 0 to 65535',
    )
    expect(() => parseEnv({ CORS_ORIGINS: 'localhost:4000' })).toThrow(
      'CORS_ORIGINS="localhost:4000": must be * or a comma list of origins',
    )
  })

  it('says which scheme CONNECTION_URL needs', () => {
    expect(() => parseEnv({ CONNECTION_URL: 'http://x' })).toThrow(/mongodb:\/\/ or mongodb\+srv/)
  })

  it('takes MAIL_SERVICE_URL as an http(s) URL or a path on the same origin', () => {
    expect(parseEnv({ MAIL_SERVICE_URL: '/mail' }).mailServiceUrl).toBe('/mail')
    expect(parseEnv({ MAIL_SERVICE_URL: 'https://mail.example/v1' }).mailServiceUrl).toBe(
      'https://mail.example/v1',
    )
    for (const bad of ['mail', '//evil.example', 'javascript:alert(1)']) {
      expect(() => parseEnv({ MAIL_SERVICE_URL: bad })).toThrow(/MAIL_SERVICE_URL/)
    }
  })

  it('shows a bad URL with its password redacted, keeping user and host for the reader', () => {
    const message = thrownBy(() => parseEnv({ CONNECTION_URL: 'postgres://user:pw@host/db' }))
    expect(message).toContain('CONNECTION_URL="postgres://user:***@host/db"')
    expect(message).not.toContain('pw')
  })

  it('redacts a password wherever a URL lands by mistake', () => {
    const message = thrownBy(() =>
      parseEnv({ MAIL_SERVICE_URL: 'ftp://mailer:hunter2@mail.example' }),
    )
    expect(message).toContain('MAIL_SERVICE_URL="ftp://mailer:***@mail.example"')
    expect(message).not.toContain('hunter2')
  })

  it('lists the secrets of an environment, for redacting what libraries print', () => {
    expect(
      secretValues({
        CONNECTION_URL: 'mongodb://ada:p%40ss@db.example/',
        ITEMS_APIKEY: ' items-k3y-of-the-test ',
        PATH: 'https://not:mine@x',
      }),
    ).toEqual(['p%40ss', 'p@ss', 'items-k3y-of-the-test'])
    expect(secretValues({})).toEqual([])
  })

  it('names every bad setting at once', () => {
    const lines = thrownBy(() => parseEnv({ PORT: 'abc', CONNECT_TIMEOUT_MS: '-5' })).split('\n')
    expect(
      lines.filter((line) => /^ {2}(PORT="abc"|CONNECT_TIMEOUT_MS="-5"): /.test(line)),
    ).toHaveLength(2)
  })

  it('lists every setting it reads by name', () => {
    expect([...settingNames].sort()).toEqual(
      'PORT HOST CONNECTION_URL DB_NAME COLLECTION_NAME DATA_DIR ITEMS_APIKEY CORS_ORIGINS CONNECT_TIMEOUT_MS SHUTDOWN_TIMEOUT_MS BODY_TIMEOUT_MS METRICS_PORT METRICS_HOST LOG_FORMAT MAIL_SERVICE_URL ITEMS_MAX_COUNT ITEMS_MAX_BYTES EVENTS_MAX_STREAMS EVENTS_MAX_STREAMS_PER_CLIENT EVENTS_IDLE_CLOSE_MS EVENTS_HEARTBEAT_MS CLIENT_IP_HEADER ITEMS_JWT_ISSUER ITEMS_JWT_AUDIENCE ITEMS_JWKS_URL ITEMS_OIDC_CLIENT_ID'
        .split(' ')
        .sort(),
    )
  })
})
