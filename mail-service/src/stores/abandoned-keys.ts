import type { Settings } from '../env.js'

/**
 * How long a key may stay without an answer before it counts as abandoned (its instance ended
 * mid-request) and is free again: longer than any send is followed (MAIL_GIVE_UP_MS).
 */
export function abandonKeysAfterMs(settings: Settings): number {
  return settings.mail.giveUpMs + 60_000
}
