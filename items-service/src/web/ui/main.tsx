/** @jsxImportSource hono/jsx/dom */
import { ErrorBoundary, render, useEffect, useState } from 'hono/jsx/dom'
import { AddMovieForm } from './add-movie-form.js'
import { useApiKey } from './api-key.js'
import { markAppStarted, showAppFailure, watchForFailures } from './app-failure.js'
import { createItemsClient, type ItemsClient } from './items-api.js'
import { KeyPrompt } from './key-prompt.js'
import { MovieList } from './movie-list.js'
import { SendMailForm } from './send-mail-form.js'
import { Successes } from './use-error-message.js'
import { useMovies } from './use-movies.js'

type AppProps = {
  /** A client of the items-service; one given the API key sends it with its writes. */
  itemsClient: (apiKey?: string) => ItemsClient
  mailServiceUrl: string
}

function App({ itemsClient, mailServiceUrl }: AppProps) {
  const [items] = useState(() => itemsClient())
  const [notice, setNotice] = useState('')
  const apiKey = useApiKey(itemsClient)
  // Emptied first, so that the same words twice ("Saved Up" after "Saved Up") are said again.
  const announce = (message: string) => {
    setNotice('')
    setTimeout(() => setNotice(message), 50)
  }
  const movies = useMovies({ items, write: apiKey.write, announce })
  const [successes, setSuccesses] = useState(0)
  // The forms and rows announce only what the user did and what succeeded; each such news also
  // retires the error messages of earlier attempts, anywhere on the page (use-error-message.ts).
  const announceDone = (message: string) => {
    setSuccesses((count) => count + 1)
    announce(message)
  }

  useEffect(() => markAppStarted(), [])

  return (
    <Successes.Provider value={successes}>
      {movies.loadError && (
        <p class="card message error" role="alert">
          {movies.loadError}
        </p>
      )}
      {apiKey.asking && (
        <KeyPrompt
          refused={apiKey.refused}
          busy={apiKey.busy}
          onGive={apiKey.give}
          onGiveUp={apiKey.giveUp}
        />
      )}
      <p class="message notice" role="status" aria-live="polite">
        {notice}
      </p>
      <AddMovieForm send={movies.send} announce={announceDone} shownGenre={movies.genre} />
      <MovieList
        items={items}
        send={movies.send}
        announce={announceDone}
        movies={movies.movies}
        genre={movies.genre}
        genres={movies.genres}
        onGenre={movies.chooseGenre}
        stream={movies.stream}
        onEditing={(movie, editing) => (editing ? movies.hold(movie) : movies.release(movie._id))}
      />
      <SendMailForm
        mailServiceUrl={mailServiceUrl}
        announce={announceDone}
        clearNotice={() => setNotice('')}
      />
    </Successes.Provider>
  )
}

const root = document.getElementById('app')
const mailServiceUrl =
  document.querySelector<HTMLMetaElement>('meta[name="mail-service-url"]')?.content ??
  'http://localhost:4001'
watchForFailures()
if (root) {
  try {
    render(
      <ErrorBoundary
        onError={showAppFailure}
        fallback={<p class="empty">The page could not be shown.</p>}
      >
        <App
          itemsClient={(apiKey) => createItemsClient(window.location.origin, { apiKey })}
          mailServiceUrl={mailServiceUrl}
        />
      </ErrorBoundary>,
      root,
    )
  } catch {
    showAppFailure()
  }
}
