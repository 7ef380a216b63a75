import { thrownBy } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { parseEnv } from './env.js'

describe('parseEnv: API_KEYS and ADMIN_API_KEYS', () => {
  it('reads ADMIN_API_KEYS, each of which must also be one of API_KEYS', () => {
    const settings = parseEnv({
      API_KEYS: 'first-mail-api-key,second-mail-api-key,operator-mail-api-key',
      ADMIN_API_KEYS: ' operator-mail-api-key ',
    })
    expect([settings.apiKeys, settings.adminApiKeys]).toEqual([
      ['first-mail-api-key', 'second-mail-api-key', 'operator-mail-api-key'],
      ['operator-mail-api-key'],
    ])
  })

  it.each([
    [{ API_KEYS: 'k1-of-the-mail-api', ADMIN_API_KEYS: 'ops-secret-api-key' }, 'key 1 of 1 is not'],
    [
      {
        API_KEYS: 'k1-of-the-mail-api,operator-mail-api-key',
        ADMIN_API_KEYS: 'operator-mail-api-key,x-secret-api-key-1,y-secret-api-key-2',
      },
      'keys 2, 3 of 3 are not',
    ],
    [{ ADMIN_API_KEYS: 'ops-secret-api-key' }, 'key 1 of 1 is not (API_KEYS is not set)'],
  ])(
    'stops the start for an admin key that is not accepted, naming ADMIN_API_KEYS but no key',
    (env, which) => {
      const message = thrownBy(() => parseEnv(env))
      expect(message).toContain(
        `ADMIN_API_KEYS (value not shown): each key must also be one of API_KEYS; ${which}`,
      )
      expect(message).not.toMatch(/secret|k1/)
    },
  )

  it('refuses API_KEYS and ADMIN_API_KEYS with a key shorter than 16 characters, not showing it', () => {
    const rule = 'must be at least 16 characters long, so that it cannot be guessed'
    expect(thrownBy(() => parseEnv({ API_KEYS: 'mail' }))).toBe(
      `SettingsError: invalid settings:\n  API_KEYS (value not shown): ${rule}`,
    )
    const message = thrownBy(() =>
      parseEnv({ API_KEYS: 'ops,first-mail-api-key,k2', ADMIN_API_KEYS: 'ops' }),
    )
    expect(message).toBe(
      'SettingsError: invalid settings:\n' +
        `  API_KEYS (value not shown): each key ${rule}; keys 1, 3 of 3 are shorter\n` +
        `  ADMIN_API_KEYS (value not shown): ${rule}`,
    )
    expect(thrownBy(() => parseEnv({ API_KEYS: 'first-mail-api-key,mail-key-15char' }))).toContain(
      'key 2 of 2 is shorter',
    )
    expect(parseEnv({ API_KEYS: 'mail-key-16chars' }).apiKeys).toEqual(['mail-key-16chars'])
  })
})
