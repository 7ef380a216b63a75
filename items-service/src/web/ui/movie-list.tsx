/** @jsxImportSource hono/jsx/dom */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import { failureOf, Refusal } from './api-error.js'
import { conflictMessage } from './conflict-message.js'
import type { DeleteOutcome } from './delete-question.js'
import { type EditBase, versionReader } from './edit-base.js'
import { GenreFilter } from './genre-filter.js'
import type { Item, ItemsClient } from './items-api.js'
import { LiveNote } from './live-note.js'
import { MovieRow } from './movie-row.js'
import { useErrorMessage } from './use-error-message.js'
import type { Send, StreamState } from './use-movies.js'

/** What the row's editor changes of a movie. */
type MovieFields = { name: string; genre: string }

type Props = {
  /** Reads the version a row's edit or delete starts from. */
  items: ItemsClient
  send: Send
  announce: (message: string) => void
  movies: Item[] | null
  genre: string
  genres: string[]
  onGenre: (genre: string) => void
  stream: StreamState
  onEditing: (movie: Item, editing: boolean) => void
  /** Whether the user may edit and delete the movie (a signed-in user: their own only). */
  mayChange: (movie: Item) => boolean
}

/**
 * The movies (of one genre, or all), each with Edit and Delete where the user may; a failed delete shows the
 * server's message. When the row that had the focus goes (deleted here or elsewhere, or moved
 * out of the genre), the focus goes to the row now in its place, or to the heading.
 */
export function MovieList({ items, send, announce, movies, genre, genres, ...props }: Props) {
  const [error, setError] = useErrorMessage()
  const [readVersion] = useState(() => versionReader(items))
  const heading = useRef<HTMLHeadingElement>(null)
  const list = useRef<HTMLUListElement>(null)
  /** The element in the list that last had the focus, and the place of its row. */
  const lastFocus = useRef<{ element: Element; index: number } | null>(null)

  useEffect(() => {
    const last = lastFocus.current
    const lost = document.activeElement === document.body || document.activeElement === null
    if (!last || last.element.isConnected || !lost) return
    lastFocus.current = null
    const next = list.current?.children[last.index]?.querySelector('button')
    ;(next ?? heading.current)?.focus()
  }, [movies])

  const rememberFocus = (event: FocusEvent) => {
    const row = (event.target as Element).closest('li')
    const index = row ? [...(list.current?.children ?? [])].indexOf(row) : -1
    if (index >= 0) lastFocus.current = { element: event.target as Element, index }
  }

  const save = async (movie: Item, base: EditBase, fields: MovieFields) => {
    const answer = await base.write(
      (id, ifMatch) =>
        send([`updated:${movie._id}`], (writer) => writer.update(id, fields, { ifMatch })),
      movie.id,
    )
    if (Array.isArray(answer)) return answer
    throw new Refusal(conflictMessage(answer, 'edit', movie))
  }

  const remove = async (movie: Item, base: EditBase): Promise<DeleteOutcome> => {
    setError('')
    try {
      const answer = await base.write(
        (id, ifMatch) => send([`deleted:${movie._id}`], (writer) => writer.remove(id, { ifMatch })),
        movie.id,
      )
      // Deleted elsewhere first: what was asked for is done.
      if (!Array.isArray(answer) && answer.now === 'gone') {
        announce(`${movie.name} was already deleted`)
        return 'deleted'
      }
      if (!Array.isArray(answer)) return { refused: conflictMessage(answer, 'delete', movie) }
      announce(`Deleted ${movie.name}`)
      return 'deleted'
    } catch (error) {
      setError(failureOf(error, 'items service').message)
      return 'failed'
    }
  }

  const empty = genre ? `No ${genre} movies.` : 'No movies yet. Add the first one above.'
  return (
    <section class="card" aria-labelledby="movies-heading">
      <div class="list-head">
        <h2 id="movies-heading" tabindex={-1} ref={heading}>
          {genre ? `${genre} movies` : 'Movies'}{' '}
          <span class="count">{movies ? movies.length : ''}</span>
        </h2>
        <GenreFilter genre={genre} genres={genres} onGenre={props.onGenre} />
      </div>
      <LiveNote stream={props.stream} />
      <p class="message error" role="alert">
        {error}
      </p>
      {movies === null ? (
        <p class="empty">Loading…</p>
      ) : movies.length === 0 ? (
        <p class="empty">{empty}</p>
      ) : (
        <ul class="movies" aria-label="Movies" ref={list} onFocusIn={rememberFocus}>
          {movies.map((movie) => (
            <MovieRow
              key={movie._id}
              movie={movie}
              readVersion={readVersion}
              announce={announce}
              onSave={save}
              onDelete={remove}
              onEditing={props.onEditing}
              mayChange={props.mayChange(movie)}
            />
          ))}
        </ul>
      )}
    </section>
  )
}
