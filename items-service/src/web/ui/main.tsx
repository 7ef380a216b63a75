/** @jsxImportSource hono/jsx/dom */
import { render, useEffect, useState } from 'hono/jsx/dom'
import { type ItemsClient, itemsClient, type StoredItem } from '../../client/items-client.js'
import { AddMovieForm } from './add-movie-form.js'
import { describeFailure, describeNetworkError } from './api-error.js'
import { MovieList } from './movie-list.js'
import { SendMailForm } from './send-mail-form.js'

function App({ client, mailServiceUrl }: { client: ItemsClient; mailServiceUrl: string }) {
  const [movies, setMovies] = useState<StoredItem[] | null>(null)
  const [loadError, setLoadError] = useState('')

  useEffect(() => {
    client.items
      .$get()
      .then(async (response) => {
        if (response.status === 200) setMovies(await response.json())
        else setLoadError(await describeFailure(response))
      })
      .catch((failure: unknown) => setLoadError(describeNetworkError(failure, 'items service')))
  }, [])

  return (
    <>
      {loadError && (
        <p class="card message error" role="alert">
          {loadError}
        </p>
      )}
      <AddMovieForm client={client} onChange={setMovies} />
      <MovieList client={client} movies={movies} onChange={setMovies} />
      <SendMailForm mailServiceUrl={mailServiceUrl} />
    </>
  )
}

const root = document.getElementById('app')
const mailServiceUrl =
  document.querySelector<HTMLMetaElement>('meta[name="mail-service-url"]')?.content ??
  'http://localhost:4001'
if (root) {
  render(<App client={itemsClient(window.location.origin)} mailServiceUrl={mailServiceUrl} />, root)
}
