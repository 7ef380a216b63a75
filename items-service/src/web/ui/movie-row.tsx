/** @jsxImportSource hono/jsx/dom */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import type { StoredItem } from '../../client/items-client.js'
import { MovieEditor } from './movie-editor.js'

type Props = {
  movie: StoredItem
  announce: (message: string) => void
  onSave: (movie: StoredItem, fields: { name: string; genre: string }) => Promise<Response>
  onSaved: (response: Response) => Promise<void>
  onDelete: (movie: StoredItem) => Promise<boolean>
}

type Mode = 'view' | 'edit' | 'confirm'

/**
 * One movie in the list: read-only, an inline editor, or the question before a delete.
 * Focus follows: into the editor, back to Edit after it, to No when asked, to Delete after No.
 */
export function MovieRow({ movie, announce, onSave, onSaved, onDelete }: Props) {
  const [mode, setMode] = useState<Mode>('view')
  const [deleting, setDeleting] = useState(false)
  // A ref, not state: a second click can come before the disabled button is rendered.
  const inFlight = useRef(false)
  const editButton = useRef<HTMLButtonElement>(null)
  const deleteButton = useRef<HTMLButtonElement>(null)
  const noButton = useRef<HTMLButtonElement>(null)
  /** The button to focus once the next mode is on screen (a ref: its element is new then). */
  const pendingFocus = useRef<{ current: HTMLButtonElement | null } | null>(null)
  useEffect(() => {
    const target = pendingFocus.current
    pendingFocus.current = null
    target?.current?.focus()
  }, [mode])
  const show = (next: Mode, focus: { current: HTMLButtonElement | null } | null = null) => {
    pendingFocus.current = focus
    setMode(next)
  }

  const confirmDelete = async () => {
    if (inFlight.current) return
    inFlight.current = true
    setDeleting(true)
    const deleted = await onDelete(movie)
    if (deleted) return
    inFlight.current = false
    setDeleting(false)
    show('view', deleteButton)
  }

  if (mode === 'edit') {
    return (
      <li class="movie editing">
        <MovieEditor
          movie={movie}
          onSave={(fields) => onSave(movie, fields)}
          onSaved={async (response, name) => {
            await onSaved(response)
            announce(`Saved ${name}`)
          }}
          onClose={() => show('view', editButton)}
        />
      </li>
    )
  }

  if (mode === 'confirm') {
    const questionId = `delete-question-${movie._id}`
    return (
      <li
        class="movie confirming"
        onKeyDown={(event: KeyboardEvent) =>
          event.key === 'Escape' && !deleting && show('view', deleteButton)
        }
      >
        <span class="movie-id">{movie.id}</span>
        <span class="confirm-question" id={questionId}>
          {deleting ? `Deleting ${movie.name}…` : `Delete ${movie.name}?`}
        </span>
        <fieldset class="actions" aria-labelledby={questionId} aria-busy={deleting}>
          <button type="button" class="danger" disabled={deleting} onClick={confirmDelete}>
            Yes
          </button>
          <button
            type="button"
            class="secondary"
            ref={noButton}
            disabled={deleting}
            onClick={() => show('view', deleteButton)}
          >
            No
          </button>
        </fieldset>
      </li>
    )
  }

  return (
    <li class="movie">
      <span class="movie-id">{movie.id}</span>
      <span class="movie-name">{movie.name}</span>
      <span class="genre">{movie.genre}</span>
      <span class="actions">
        <button
          type="button"
          class="secondary"
          ref={editButton}
          aria-label={`Edit ${movie.name}`}
          onClick={() => show('edit')}
        >
          Edit
        </button>
        <button
          type="button"
          class="danger"
          ref={deleteButton}
          aria-label={`Delete ${movie.name}`}
          onClick={() => show('confirm', noButton)}
        >
          Delete
        </button>
      </span>
    </li>
  )
}
