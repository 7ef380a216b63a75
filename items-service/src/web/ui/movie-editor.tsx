/** @jsxImportSource hono/jsx/dom */
import { useEffect, useRef } from 'hono/jsx/dom'
import type { StoredItem } from '../../client/items-client.js'
import { Field } from './field.js'
import { useFormSubmit } from './use-form-submit.js'

type Props = {
  movie: StoredItem
  onSave: (fields: { name: string; genre: string }) => Promise<Response>
  onSaved: (response: Response, name: string) => Promise<void>
  onClose: () => void
}

/** The inline editor of a movie's name and genre; opens with focus in its first field. */
export function MovieEditor({ movie, onSave, onSaved, onClose }: Props) {
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => form.current?.querySelector('input')?.focus(), [])
  const { error, fieldErrors, busy, submit } = useFormSubmit({
    service: 'items service',
    required: ['name', 'genre'],
    send: (field) => onSave({ name: field('name'), genre: field('genre') }),
    onSuccess: async (response, sent) => {
      await onSaved(response, String(new FormData(sent).get('name') ?? '').trim())
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
      onKeyDown={(event: KeyboardEvent) => event.key === 'Escape' && onClose()}
      noValidate
    >
      <span class="movie-id">{movie.id}</span>
      <Field
        form={formId}
        name="name"
        label="Name"
        hiddenLabel
        value={movie.name}
        error={fieldErrors.name}
        maxLength={500}
      />
      <Field
        form={formId}
        name="genre"
        label="Genre"
        hiddenLabel
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
