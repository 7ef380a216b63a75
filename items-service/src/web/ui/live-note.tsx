/** @jsxImportSource hono/jsx/dom */
import type { StreamState } from './use-movies.js'

const notes: Record<StreamState, string> = {
  connecting: '',
  live: '',
  interrupted: 'Live updates interrupted; reconnecting…',
  unavailable:
    "Live updates are off: this service's store cannot follow changes. Reload to see changes made elsewhere.",
}

/**
 * A quiet line (not a live region) when the list does not follow changes made elsewhere: the
 * page works as before, but the user should know it may be behind.
 */
export function LiveNote({ stream }: { stream: StreamState }) {
  const note = notes[stream]
  return note ? <p class="hint live-note">{note}</p> : null
}
