/** @jsxImportSource hono/jsx/dom */
import { useState } from 'hono/jsx/dom'
import type { StoredItem } from '../../client/items-client.js'

type Props = {
  movie: StoredItem
  onSave: (movie: StoredItem, fields: { name: string; genre: string }) => Promise<boolean>
  onDelete: (movie: StoredItem) => Promise<void>
}

/** One movie in the list: read-only, or an inline editor for its name and genre. */
export function MovieRow({ movie, onSave, onDelete }: Props) {
  const [editing, setEditing] = useState(false)

  if (!editing) {
    return (
      <li class="movie">
        <span class="movie-id">{movie.id}</span>
        <span class="movie-name">{movie.name}</span>
        <span class="genre">{movie.genre}</span>
        <span class="actions">
          <button
            type="button"
            class="secondary"
            aria-label={`Edit ${movie.name}`}
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
          <button
            type="button"
            class="danger"
            aria-label={`Delete ${movie.name}`}
            onClick={() => onDelete(movie)}
          >
            Delete
          </button>
        </span>
      </li>
    )
  }

  const save = async (event: Event) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget as HTMLFormElement)
    const saved = await onSave(movie, {
      name: String(data.get('name') ?? '').trim(),
      genre: String(data.get('genre') ?? '').trim(),
    })
    if (saved) setEditing(false)
  }

  return (
    <li class="movie editing">
      <form
        class="edit-form"
        aria-label={`Edit ${movie.name}`}
        onSubmit={save}
        onKeyDown={(event: KeyboardEvent) => event.key === 'Escape' && setEditing(false)}
      >
        <span class="movie-id">{movie.id}</span>
        <label>
          <span class="visually-hidden">Name</span>
          <input name="name" value={movie.name} required maxLength={500} autofocus />
        </label>
        <label>
          <span class="visually-hidden">Genre</span>
          <input name="genre" value={movie.genre} required maxLength={100} />
        </label>
        <span class="actions">
          <button type="submit">Save</button>
          <button type="button" class="secondary" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </span>
      </form>
    </li>
  )
}
