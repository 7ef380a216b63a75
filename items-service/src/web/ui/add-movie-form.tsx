/** @jsxImportSource hono/jsx/dom */
import type { ItemsClient, StoredItem } from '../../client/items-client.js'
import type { Write } from './api-key.js'
import { Field } from './field.js'
import { useFormSubmit } from './use-form-submit.js'

type Props = {
  client: ItemsClient
  write: Write
  announce: (message: string) => void
  onChange: (items: StoredItem[]) => void
}

/** The "Add movie" form; shows the server's message when it refuses, issues at their field. */
export function AddMovieForm({ client, write, announce, onChange }: Props) {
  const { error, fieldErrors, busy, submit } = useFormSubmit({
    service: 'items service',
    required: ['id', 'name', 'genre'],
    send: (field) =>
      write(() =>
        client.items.$post({
          json: { id: field('id'), name: field('name'), genre: field('genre') },
        }),
      ),
    onSuccess: async (response, form) => {
      const name = String(new FormData(form).get('name') ?? '').trim()
      onChange((await response.json()) as StoredItem[])
      announce(`Added ${name}`)
      form.reset()
      form.querySelector<HTMLInputElement>('input')?.focus()
    },
  })

  return (
    <form class="card add-form" aria-label="Add movie" onSubmit={submit} noValidate>
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
