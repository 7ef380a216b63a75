/** @jsxImportSource hono/jsx/dom */
import { ErrorBoundary, render, useEffect, useState } from 'hono/jsx/dom'
import { type ItemsClient, itemsClient, type StoredItem } from '../../client/items-client.js'
import { AddMovieForm } from './add-movie-form.js'
import { describeFailure, describeNetworkError } from './api-error.js'
import { keyedFetch, useApiKey } from './api-key.js'
import { markAppStarted, showAppFailure, watchForFailures } from './app-failure.js'
import { KeyPrompt } from './key-prompt.js'
import { MovieList } from './movie-list.js'
import { SendMailForm } from './send-mail-form.js'

function App({ client, mailServiceUrl }: { client: ItemsClient; mailServiceUrl: string }) {
  const [movies, setMovies] = useState<StoredItem[] | null>(null)
  const [loadError, setLoadError] = useState('')
  const [notice, setNotice] = useState('')
  const apiKey = useApiKey()
  // Emptied first, so that the same words twice ("Saved Up" after "Saved Up") are said again.
  const announce = (message: string) => {
    setNotice('')
    setTimeout(() => setNotice(message), 50)
  }

  useEffect(() => {
    client.items
      .$get()
      .then(async (response) => {
        if (response.status === 200) setMovies(await response.json())
        else setLoadError(await describeFailure(response))
      })
      .catch((failure: unknown) => setLoadError(describeNetworkError(failure, 'items service')))
    markAppStarted()
  }, [])

  return (
    <>
      {loadError && (
        <p class="card message error" role="alert">
          {loadError}
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
      <AddMovieForm client={client} write={apiKey.write} announce={announce} onChange={setMovies} />
      <MovieList
        client={client}
        write={apiKey.write}
        announce={announce}
        movies={movies}
        onChange={setMovies}
      />
      <SendMailForm mailServiceUrl={mailServiceUrl} announce={announce} />
    </>
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
          client={itemsClient(window.location.origin, { fetch: keyedFetch })}
          mailServiceUrl={mailServiceUrl}
        />
      </ErrorBoundary>,
      root,
    )
  } catch {
    showAppFailure()
  }
}
