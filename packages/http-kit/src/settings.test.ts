import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { serviceSettings, serviceSettingsOf } from './service-settings.js'
import {
  apiKey,
  commaList,
  defineSettings,
  httpUrl,
  milliseconds,
  oneOf,
  optional,
  origins,
  port,
  SettingsError,
  text,
  withDefault,
} from './settings.js'

const settings = defineSettings(
  {
    PORT: withDefault(port(), 4000),
    DATABASE_URL: optional(text()),
    API_KEY: optional(
      text().check(z.refine((key: string) => !key.includes(' '), 'must not hold spaces')),
    ),
    TIMEOUT_MS: withDefault(milliseconds(), 5_000),
  },
  {
    keys: ['API_KEY'],
    toSettings: (env) => ({
      port: env.PORT,
      databaseUrl: env.DATABASE_URL,
      apiKey: env.API_KEY,
      timeoutMs: env.TIMEOUT_MS,
    }),
  },
)

/** What one setting read with `schema` gives for `value`, or the message it fails with. */
function read(schema: z.ZodMiniType, value: string): unknown {
  const reader = defineSettings({ SETTING: schema }, { toSettings: (env) => env.SETTING })
  try {
    return reader.parse({ SETTING: value })
  } catch (error) {
    return (error as Error).message.replace('invalid settings:\n  ', '')
  }
}

describe('defineSettings', () => {
  it('gives every setting its default and maps the names to the settings object', () => {
    expect(settings.parse({})).toEqual({ port: 4000, timeoutMs: 5_000 })
    expect(
      settings.parse({ PORT: '8080', API_KEY: 'k3y-of-the-settings', TIMEOUT_MS: '250' }),
    ).toEqual({
      port: 8080,
      apiKey: 'k3y-of-the-settings',
      timeoutMs: 250,
    })
  })

  it('counts an empty or blank value as unset, and ignores variables it does not read', () => {
    expect(settings.parse({ PORT: '', TIMEOUT_MS: '  ', PATH: '/usr/bin' })).toEqual({
      port: 4000,
      timeoutMs: 5_000,
    })
  })

  it('lists the environment names it reads', () => {
    expect(settings.names).toEqual(['PORT', 'DATABASE_URL', 'API_KEY', 'TIMEOUT_MS'])
  })

  it('names every bad setting in one error, a line each, with its value and what is wrong', () => {
    expect(() => settings.parse({ PORT: 'abc', TIMEOUT_MS: '0' })).toThrow(
      'invalid settings:\n' +
        '  PORT="abc": must be a whole number from 0 to 65535\n' +
        '  TIMEOUT_MS="0": must be a whole number of milliseconds above 0',
    )
  })

  it('throws a SettingsError carrying each problem', () => {
    try {
      settings.parse({ PORT: '-1' })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(SettingsError)
      expect((error as SettingsError).problems).toEqual([
        'PORT="-1": must be a whole number from 0 to 65535',
      ])
    }
  })

  it('names a key but never shows its value', () => {
    expect(() => settings.parse({ API_KEY: 'top secret' })).toThrow(
      /^invalid settings:\n {2}API_KEY \(value not shown\): must not hold spaces$/,
    )
  })

  it('lists the secrets of an environment: keys, and the passwords of URLs', () => {
    expect(
      settings.secrets({ API_KEY: ' k3y-of-the-settings ', DATABASE_URL: 'mongodb://ada:pw@db/' }),
    ).toEqual(['pw', 'k3y-of-the-settings'])
    expect(settings.secrets({})).toEqual([])
  })
})

describe('port', () => {
  it.each([
    ['0', 0],
    ['65535', 65_535],
    [' 80 ', 80],
  ])('reads %j as %d', (value, expected) => {
    expect(read(port(), value)).toBe(expected)
  })

  it.each(['abc', '70000', '80.5', '-1', 'Infinity'])('refuses %j', (value) => {
    expect(read(port(), value)).toBe(
      `SETTING=${JSON.stringify(value)}: must be a whole number from 0 to 65535`,
    )
  })
})

describe('milliseconds', () => {
  it('reads a whole number above 0', () => {
    expect(read(milliseconds(), '1500')).toBe(1500)
  })

  it.each(['0', '-5', '1.5', 'soon'])('refuses %j', (value) => {
    expect(read(milliseconds(), value)).toBe(
      `SETTING=${JSON.stringify(value)}: must be a whole number of milliseconds above 0`,
    )
  })

  it('says the upper bound when it has one', () => {
    expect(read(milliseconds({ max: 600_000 }), '600000')).toBe(600_000)
    expect(read(milliseconds({ max: 600_000 }), '600001')).toBe(
      'SETTING="600001": must be a whole number of milliseconds from 1 to 600000',
    )
  })
})

describe('origins', () => {
  it('reads * and comma lists of origins', () => {
    expect(read(origins(), '*')).toEqual(['*'])
    expect(read(origins(), ' http://localhost:4000, https://app.example ,')).toEqual([
      'http://localhost:4000',
      'https://app.example',
    ])
  })

  it('writes an origin as a browser sends it, so that an exact match finds it', () => {
    expect(read(origins(), 'https://App.Example:443,http://[::1]:8080')).toEqual([
      'https://app.example',
      'http://[::1]:8080',
    ])
  })

  it.each([
    ' , ',
    'localhost:4000',
    'app.example',
    'https://app.example/',
    'https://app.example/path',
    'https://app.example?x=1',
    'https://app.example#top',
    'ftp://files.example',
    'https://app.example, nope',
  ])('refuses %j', (value) => {
    expect(read(origins(), value)).toBe(
      `SETTING=${JSON.stringify(value)}: must be * or a comma list of origins like https://app.example.com`,
    )
  })
})

describe('commaList', () => {
  it('trims every item and drops empty ones', () => {
    expect(read(commaList(), ' one, two ,,')).toEqual(['one', 'two'])
  })
})

describe('httpUrl', () => {
  it('keeps an http(s) URL as written', () => {
    expect(read(httpUrl(), ' https://mail.example ')).toBe('https://mail.example')
    expect(read(httpUrl(), 'http://127.0.0.1:9999/v3/')).toBe('http://127.0.0.1:9999/v3/')
  })

  it.each(['not a url', 'ftp://files.example', 'javascript:alert(1)', '/mail'])(
    'refuses %j',
    (value) => {
      expect(read(httpUrl(), value)).toBe(
        `SETTING=${JSON.stringify(value)}: must be an http(s) URL`,
      )
    },
  )

  it('takes a path on the same origin with orPath, but not one that names another host', () => {
    expect(read(httpUrl({ orPath: true }), '/mail')).toBe('/mail')
    expect(read(httpUrl({ orPath: true }), '//evil.example')).toBe(
      'SETTING="//evil.example": must be an http(s) URL or a path starting with /',
    )
  })

  it('shows a refused URL with its password redacted', () => {
    expect(read(httpUrl(), 'ftp://relay:hunter2@mail.example')).toBe(
      'SETTING="ftp://relay:***@mail.example": must be an http(s) URL',
    )
  })
})

describe('apiKey', () => {
  it('takes a key of 16 characters or more, trimmed', () => {
    expect(read(apiKey(), ' a-key-of-16-char ')).toBe('a-key-of-16-char')
  })

  it('refuses a shorter one, counting characters rather than UTF-16 units', () => {
    const reader = defineSettings({ KEY: apiKey() }, { keys: ['KEY'], toSettings: (env) => env })
    for (const key of ['mail', 'a-key-of-15-chr', '🔑'.repeat(15)]) {
      expect(() => reader.parse({ KEY: key })).toThrow(
        /^invalid settings:\n {2}KEY \(value not shown\): must be at least 16 characters long, so that it cannot be guessed$/,
      )
    }
  })
})

describe('oneOf and text', () => {
  it('says which values oneOf takes', () => {
    expect(read(oneOf(['us', 'eu']), 'eu')).toBe('eu')
    expect(read(oneOf(['us', 'eu']), 'asia')).toBe('SETTING="asia": must be one of us, eu')
  })

  it('trims text', () => {
    expect(read(text(), '  0.0.0.0 ')).toBe('0.0.0.0')
  })
})

describe('serviceSettings', () => {
  const reader = defineSettings(serviceSettings({ port: 4000 }), { toSettings: serviceSettingsOf })

  it('listens on 127.0.0.1 unless HOST says otherwise', () => {
    expect(reader.parse({}).host).toBe('127.0.0.1')
    expect(reader.parse({ HOST: ' ' }).host).toBe('127.0.0.1')
    expect(reader.parse({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0')
  })
})
