/** @jsxImportSource hono/jsx/dom */
import { useState } from 'hono/jsx/dom'
import { type ItemsClient, itemParam, type StoredItem } from '../../client/items-client.js'
import { describeFailure, describeNetworkError } from './api-error.js'
import { MovieRow } from './movie-row.js'

type Props = {
  client: ItemsClient
  movies: StoredItem[] | null
  onChange: (items: StoredItem[]) => void
}

/** The movies, each with Edit and Delete; a failed change shows the server's message. */
export function MovieList({ client, movies, onChange }: Props) {
  const [error, setError] = useState('')

  /** Runs one change; true when the server accepted it and answered the new list. */
  const change = async (request: () => Promise<Response>): Promise<boolean> => {
    setError('')
    try {
      const response = await request()
      if (!response.ok) {
        setError(await describeFailure(response))
        return false
      }
      onChange((await response.json()) as StoredItem[])
      return true
    } catch (failure) {
      setError(describeNetworkError(failure, 'items service'))
      return false
    }
  }

  const save = (movie: StoredItem, fields: { name: string; genre: string }) =>
    change(() => client.items[':id'].$put({ param: itemParam(movie.id), json: fields }))
  const remove = async (movie: StoredItem) => {
    await change(() => client.items[':id'].$delete({ param: itemParam(movie.id) }))
  }

  return (
    <section class="card" aria-labelledby="movies-heading">
      <h2 id="movies-heading">
        Movies <span class="count">{movies ? movies.length : ''}</span>
      </h2>
      <p class="message error" role="alert">
        {error}
      </p>
      {movies === null ? (
        <p class="empty">Loading…</p>
      ) : movies.length === 0 ? (
        <p class="empty">No movies yet. Add the first one above.</p>
      ) : (
        <ul class="movies" aria-label="Movies">
          {movies.map((movie) => (
            <MovieRow key={movie._id} movie={movie} onSave={save} onDelete={remove} />
          ))}
        </ul>
      )}
    </section>
  )
}
