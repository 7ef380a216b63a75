/** @jsxImportSource hono/jsx/dom */

type Props = { genre: string; genres: string[]; onGenre: (genre: string) => void }

/**
 * Which genre the list shows: a labelled select of the genres the collection has (a genre is
 * matched exactly, so choosing beats typing one), "All genres" first.
 */
export function GenreFilter({ genre, genres, onGenre }: Props) {
  return (
    <label class="genre-filter">
      Show genre
      <select
        name="genre-filter"
        value={genre}
        onChange={(event: Event) => onGenre((event.currentTarget as HTMLSelectElement).value)}
      >
        <option value="" selected={genre === ''}>
          All genres
        </option>
        {genres.map((name) => (
          <option key={name} value={name} selected={name === genre}>
            {name}
          </option>
        ))}
      </select>
    </label>
  )
}
