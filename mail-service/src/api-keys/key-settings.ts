import { commaList, SettingsError, withDefault } from '@movies-and-mail/http-kit/settings'
import * as z from 'zod/mini'

const noSpaceOrControl = /^[^\s\p{Cc}]+$/u

/** API_KEYS and ADMIN_API_KEYS: a comma list of keys, none with a space or a control character. */
export function keyList() {
  return withDefault(
    commaList().check(
      z.refine(
        (keys: string[]) => keys.every((key) => noSpaceOrControl.test(key)),
        'keys may not hold spaces',
      ),
    ),
    [],
  )
}

/**
 * The admin keys (ADMIN_API_KEYS), each of which must also be one of API_KEYS: API_KEYS stays
 * the one list of accepted keys, so a key taken out of it is refused everywhere, whatever
 * ADMIN_API_KEYS still says. The message counts the keys, and never shows one.
 * @throws SettingsError naming ADMIN_API_KEYS when a key of it is not one of API_KEYS
 */
export function adminKeysOf(env: { API_KEYS: string[]; ADMIN_API_KEYS: string[] }): string[] {
  const admins = env.ADMIN_API_KEYS
  const strangers = admins.flatMap((key, index) => (env.API_KEYS.includes(key) ? [] : [index + 1]))
  if (strangers.length === 0) return admins
  const which =
    strangers.length === 1
      ? `key ${strangers[0]} of ${admins.length} is not`
      : `keys ${strangers.join(', ')} of ${admins.length} are not`
  const unset = env.API_KEYS.length === 0 ? ' (API_KEYS is not set)' : ''
  throw new SettingsError([
    `ADMIN_API_KEYS (value not shown): each key must also be one of API_KEYS; ${which}${unset}`,
  ])
}
