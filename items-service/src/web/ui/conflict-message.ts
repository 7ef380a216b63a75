import type { Conflict } from './edit-base.js'
import type { Item } from './items-api.js'

/**
 * The words for a write refused since the movie changed elsewhere: what it is now, that
 * nothing was done, and how to do it anyway.
 */
export function conflictMessage({ now }: Conflict, action: 'edit' | 'delete', seen: Item) {
  if (now === 'gone') {
    return action === 'edit'
      ? 'This movie was deleted elsewhere. Your edit was not saved.'
      : 'This movie was deleted elsewhere.'
  }
  const current =
    now === 'unknown'
      ? ''
      : ` (now “${now.name}”, ${now.genre}${now.id === seen.id ? '' : `, id ${now.id}`})`
  return action === 'edit'
    ? `This movie was changed elsewhere${current}. Your edit was not saved. Save again to apply it to this version, or Cancel.`
    : `This movie was changed elsewhere${current}. It was not deleted. Yes deletes this version.`
}
