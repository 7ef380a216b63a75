/** @jsxImportSource hono/jsx/dom */
import { useState } from 'hono/jsx/dom'
import type { ItemsClient, StoredItem } from '../../client/items-client.js'
import { describeFailure, describeNetworkError } from './api-error.js'

type Props = { client: ItemsClient; onChange: (items: StoredItem[]) => void }

/** The "Add movie" form; shows the server's message when it refuses. */
export function AddMovieForm({ client, onChange }: Props) {
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  const submit = async (event: Event) => {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const data = new FormData(form)
    const field = (name: string) => String(data.get(name) ?? '').trim()
    setBusy(true)
    setError('')
    try {
      const response = await client.items.$post({
        json: { id: field('id'), name: field('name'), genre: field('genre') },
      })
      if (response.status === 201) {
        onChange(await response.json())
        form.reset()
        form.querySelector<HTMLInputElement>('input')?.focus()
      } else {
        setError(await describeFailure(response))
      }
    } catch (failure) {
      setError(describeNetworkError(failure, 'items service'))
    } finally {
      setBusy(false)
    }
  }

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
