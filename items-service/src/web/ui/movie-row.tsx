/** @jsxImportSource hono/jsx/dom */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import { type DeleteOutcome, DeleteQuestion } from './delete-question.js'
import type { EditBase, ReadVersion } from './edit-base.js'
import type { Item } from './items-api.js'
import { MovieEditor } from './movie-editor.js'

type Props = {
  movie: Item
  readVersion: ReadVersion
  announce: (message: string) => void
  onSave: (movie: Item, base: EditBase, fields: { name: string; genre: string }) => Promise<Item[]>
  onDelete: (movie: Item, base: EditBase) => Promise<DeleteOutcome>
  /** The editor opens (true) or closes: the movie stays shown meanwhile. */
  onEditing: (movie: Item, editing: boolean) => void
  /** Edit and Delete are offered; not on another user's movie. */
  mayChange: boolean
}

type Mode = 'view' | 'edit' | 'confirm'

/**
 * One movie in the list: read-only, an inline editor, or the question before a delete.
 * Focus follows: into the editor, back to Edit after it, to No when asked, to Delete after No.
 */
export function MovieRow(props: Props) {
  const { movie, readVersion, announce, onSave, onDelete, onEditing, mayChange } = props
  const [mode, setMode] = useState<Mode>('view')
  const editButton = useRef<HTMLButtonElement>(null)
  const deleteButton = useRef<HTMLButtonElement>(null)
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

  if (mode === 'edit') {
    return (
      <li class="movie editing">
        <MovieEditor
          movie={movie}
          readVersion={readVersion}
          onSave={(base, fields) => onSave(movie, base, fields)}
          onSaved={(name) => announce(`Saved ${name}`)}
          onClose={() => {
            show('view', editButton)
            onEditing(movie, false)
          }}
        />
      </li>
    )
  }

  if (mode === 'confirm') {
    return (
      <DeleteQuestion
        movie={movie}
        readVersion={readVersion}
        onDelete={(base) => onDelete(movie, base)}
        onClose={() => show('view', deleteButton)}
      />
    )
  }

  return (
    <li class="movie">
      <span class="movie-id">{movie.id}</span>
      <span class="movie-name">{movie.name}</span>
      <span class="genre">{movie.genre}</span>
      {mayChange && (
        <span class="actions">
          <button
            type="button"
            class="secondary"
            ref={editButton}
            aria-label={`Edit ${movie.name}`}
            onClick={() => {
              onEditing(movie, true)
              show('edit')
            }}
          >
            Edit
          </button>
          <button
            type="button"
            class="danger"
            ref={deleteButton}
            aria-label={`Delete ${movie.name}`}
            onClick={() => show('confirm')}
          >
            Delete
          </button>
        </span>
      )}
    </li>
  )
}
