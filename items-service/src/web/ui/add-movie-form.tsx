/** @jsxImportSource hono/jsx/dom */
import { Field } from './field.js'
import { useFormSubmit } from './use-form-submit.js'
import type { Send } from './use-movies.js'

type Props = {
  send: Send
  announce: (message: string) => void
  /** The genre the list shows, if one: a movie of another is added but not shown. */
  shownGenre: string
}

/** The "Add movie" form; shows the server's message when it refuses, issues at their field. */
export function AddMovieForm({ send, announce, shownGenre }: Props) {
  const { error, fieldErrors, busy, submit, onInput } = useFormSubmit({
    service: 'items service',
    required: ['id', 'name', 'genre'],
    send: (field) =>
      send([`created:${field('id')}`], (items) =>
        items.create({ id: field('id'), name: field('name'), genre: field('genre') }),
      ),
    onSuccess: (_list, form) => {
      const data = new FormData(form)
      const name = String(data.get('name') ?? '').trim()
      const genre = String(data.get('genre') ?? '').trim()
      const hidden = shownGenre !== '' && genre !== shownGenre
      announce(
        hidden ? `Added ${name} (not shown: the list shows ${shownGenre} only)` : `Added ${name}`,
      )
      form.reset()
      form.querySelector<HTMLInputElement>('input')?.focus()
    },
  })

  return (
    <form
      class="card add-form"
      aria-label="Add movie"
      onSubmit={submit}
      onInput={onInput}
      noValidate
    >
      <h2>Add a movie</h2>
      <div class="fields">
        <Field
          form="add"
          name="id"
          label="ID"
          error={fieldErrors.id}
          maxLength={200}
          placeholder="tt0111161"
          autocomplete="off"
        />
        <Field
          form="add"
          name="name"
          label="Name"
          error={fieldErrors.name}
          maxLength={500}
          placeholder="The Shawshank Redemption"
        />
        <Field
          form="add"
          name="genre"
          label="Genre"
          error={fieldErrors.genre}
          maxLength={100}
          placeholder="Drama"
        />
        <button type="submit" disabled={busy}>
          Add
        </button>
      </div>
      <p class="message error" role="alert">
        {error}
      </p>
    </form>
  )
}
