/** @jsxImportSource hono/jsx/dom */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import { type ItemsClient, itemParam, type StoredItem } from '../../client/items-client.js'
import { describeFailure, describeNetworkError } from './api-error.js'
import type { Write } from './api-key.js'
import { MovieRow } from './movie-row.js'

type Props = {
  client: ItemsClient
  write: Write
  announce: (message: string) => void
  movies: StoredItem[] | null
  onChange: (items: StoredItem[]) => void
}

/** The movies, each with Edit and Delete; a failed delete shows the server's message. */
export function MovieList({ client, write, announce, movies, onChange }: Props) {
  const [error, setError] = useState('')
  const heading = useRef<HTMLHeadingElement>(null)
  const list = useRef<HTMLUListElement>(null)
  /** The place of a deleted row: focus goes to the row now there, or to the heading. */
  const deletedAt = useRef<number | null>(null)

  useEffect(() => {
    const index = deletedAt.current
    if (index === null) return
    deletedAt.current = null
    const next = list.current?.children[index]?.querySelector('button')
    ;(next ?? heading.current)?.focus()
  }, [movies])

  const save = (movie: StoredItem, fields: { name: string; genre: string }) =>
    write(() => client.items[':id'].$put({ param: itemParam(movie.id), json: fields }))
  const accept = async (response: Response) => onChange((await response.json()) as StoredItem[])

  /** Deletes one movie; true when the server did. */
  const remove = async (movie: StoredItem): Promise<boolean> => {
    setError('')
    try {
      const response = await write(() =>
        client.items[':id'].$delete({ param: itemParam(movie.id) }),
      )
      if (!response.ok) {
        setError(await describeFailure(response))
        return false
      }
      deletedAt.current = movies?.findIndex((listed) => listed._id === movie._id) ?? 0
      await accept(response)
      announce(`Deleted ${movie.name}`)
      return true
    } catch (failure) {
      setError(describeNetworkError(failure, 'items service'))
      return false
    }
  }

  return (
    <section class="card" aria-labelledby="movies-heading">
      <h2 id="movies-heading" tabindex={-1} ref={heading}>
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
        <ul class="movies" aria-label="Movies" ref={list}>
          {movies.map((movie) => (
            <MovieRow
              key={movie._id}
              movie={movie}
              announce={announce}
              onSave={save}
              onSaved={accept}
              onDelete={remove}
            />
          ))}
        </ul>
      )}
    </section>
  )
}
