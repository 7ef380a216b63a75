import {
  commaList,
  isTooShortKey,
  SettingsError,
  tooShortKeyMessage,
  withDefault,
} from '@movies-and-mail/http-kit/settings'
import * as z from 'zod/mini'

const noSpaceOrControl = /^[^\s\p{Cc}]+$/u

/** What a list with a key too short is told: which keys, by place, and never a key. */
function tooShortKeysMessage(keys: string[]): string {
  if (keys.length === 1) return tooShortKeyMessage
  const short = keys.flatMap((key, index) => (isTooShortKey(key) ? [index + 1] : []))
  const which =
    short.length === 1
      ? `key ${short[0]} of ${keys.length} is shorter`
      : `keys ${short.join(', ')} of ${keys.length} are shorter`
  return `each key ${tooShortKeyMessage}; ${which}`
}

/**
 * API_KEYS and ADMIN_API_KEYS: a comma list of keys, none with a space or a control character,
 * each of at least 16 characters (`minKeyLength` in http-kit's settings says why).
 */
export function keyList() {
  return withDefault(
    commaList().check(
      z.refine(
        (keys: string[]) => keys.every((key) => noSpaceOrControl.test(key)),
        'keys may not hold spaces',
      ),
      z.check((check: z.core.ParsePayload<string[]>) => {
        if (!check.value.some(isTooShortKey)) return
        const message = tooShortKeysMessage(check.value)
        check.issues.push({ code: 'custom', message, input: check.value })
      }),
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
