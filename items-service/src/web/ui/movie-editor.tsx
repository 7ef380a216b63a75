/** @jsxImportSource hono/jsx/dom */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import { EditBase, type ReadVersion } from './edit-base.js'
import { Field } from './field.js'
import type { Item } from './items-api.js'
import { useFormSubmit } from './use-form-submit.js'

type Props = {
  movie: Item
  readVersion: ReadVersion
  /** Saves the fields over the version the editor started from; rejects with why not. */
  onSave: (base: EditBase, fields: { name: string; genre: string }) => Promise<Item[]>
  onSaved: (name: string) => void
  onClose: () => void
}

/**
 * The inline editor of a movie's name and genre; opens with focus in its first field. It keeps
 * the movie as it was when opened, so a change arriving from elsewhere does not replace what
 * the user is typing; saving over that change is refused and explained instead.
 */
export function MovieEditor({ movie: current, readVersion, onSave, onSaved, onClose }: Props) {
  const [movie] = useState(current)
  const [base] = useState(() => new EditBase(readVersion, current))
  const form = useRef<HTMLFormElement>(null)
  // Into the first field, unless the user is in the form already: the effect runs after the
  // editor is drawn, and a click into Genre made meanwhile must keep what is typed there.
  useEffect(() => {
    if (!form.current?.contains(document.activeElement))
      form.current?.querySelector('input')?.focus()
  }, [])
  const { error, fieldErrors, busy, submit, onInput } = useFormSubmit({
    service: 'items service',
    required: ['name', 'genre'],
    send: (field) => onSave(base, { name: field('name'), genre: field('genre') }),
    onSuccess: (_list, sent) => {
      onSaved(String(new FormData(sent).get('name') ?? '').trim())
      onClose()
    },
  })
  const formId = `edit-${movie._id}`

  return (
    <form
      ref={form}
      class="edit-form"
      aria-label={`Edit ${movie.name}`}
      onSubmit={submit}
      onInput={onInput}
      onKeyDown={(event: KeyboardEvent) => event.key === 'Escape' && onClose()}
      noValidate
    >
      <span class="movie-id">{movie.id}</span>
      <Field
        form={formId}
        name="name"
        label="Name"
        value={movie.name}
        error={fieldErrors.name}
        maxLength={500}
      />
      <Field
        form={formId}
        name="genre"
        label="Genre"
        value={movie.genre}
        error={fieldErrors.genre}
        maxLength={100}
      />
      <span class="actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          Cancel
        </button>
      </span>
      <p class="message error" role="alert">
        {error}
      </p>
    </form>
  )
}
