/** @jsxImportSource hono/jsx/dom */
import type { ItemsClient, StoredItem } from '../../client/items-client.js'
import { useFormSubmit } from './use-form-submit.js'

type Props = { client: ItemsClient; onChange: (items: StoredItem[]) => void }

/** The "Add movie" form; shows the server's message when it refuses. */
export function AddMovieForm({ client, onChange }: Props) {
  const { error, busy, submit } = useFormSubmit({
    service: 'items service',
    send: (field) =>
      client.items.$post({ json: { id: field('id'), name: field('name'), genre: field('genre') } }),
    onSuccess: async (response, form) => {
      onChange((await response.json()) as StoredItem[])
      form.reset()
      form.querySelector<HTMLInputElement>('input')?.focus()
    },
  })

  return (
    <form class="card add-form" aria-label="Add movie" onSubmit={submit}>
      <h2>Add a movie</h2>
      <div class="fields">
        <label>
          ID
          <input name="id" required maxLength={200} placeholder="tt0111161" autocomplete="off" />
        </label>
        <label>
          Name
          <input name="name" required maxLength={500} placeholder="The Shawshank Redemption" />
        </label>
        <label>
          Genre
          <input name="genre" required maxLength={100} placeholder="Drama" />
        </label>
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
