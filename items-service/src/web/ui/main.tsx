/** @jsxImportSource hono/jsx/dom */
import { ErrorBoundary, render, useEffect, useState } from 'hono/jsx/dom'
import { AddMovieForm } from './add-movie-form.js'
import { useApiKey } from './api-key.js'
import { markAppStarted, showAppFailure, watchForFailures } from './app-failure.js'
import { createItemsClient, type ItemsClient } from './items-api.js'
import { KeyPrompt } from './key-prompt.js'
import { MovieList } from './movie-list.js'
import { SendMailForm } from './send-mail-form.js'
import { type SignInSettings, signInSettingsOfPage } from './sign-in.js'
import { SignInBar } from './sign-in-bar.js'
import { Successes } from './use-error-message.js'
import { useMovies } from './use-movies.js'
import { type CurrentToken, useSignIn } from './use-sign-in.js'

type AppProps = {
  /** A client of the items-service; one given the API key sends it with its writes. */
  itemsClient: (apiKey?: string) => ItemsClient
  /** A client that sends a signed-in user's token with its writes. */
  signedInClient: (token: CurrentToken) => ItemsClient
  /** Where users sign in; without, a write refused 401 asks for the API key. */
  signIn: SignInSettings | undefined
  mailServiceUrl: string
}

function App({ itemsClient, signedInClient, signIn, mailServiceUrl }: AppProps) {
  const [items] = useState(() => itemsClient())
  const [notice, setNotice] = useState('')
  const apiKey = useApiKey(itemsClient)
  const session = useSignIn(signIn, signedInClient)
  // Emptied first, so that the same words twice ("Saved Up" after "Saved Up") are said again.
  const announce = (message: string) => {
    setNotice('')
    setTimeout(() => setNotice(message), 50)
  }
  const write = session.enabled ? session.write : apiKey.write
  const movies = useMovies({ items, write, announce })
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
      {session.enabled && (
        <SignInBar
          user={session.user}
          loading={session.loading}
          problem={session.problem}
          onSignIn={session.signIn}
          onSignOut={session.signOut}
        />
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
        mayChange={session.enabled ? (movie) => session.owns(movie._owner) : () => true}
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
          signedInClient={(token) => createItemsClient(window.location.origin, { token })}
          signIn={signInSettingsOfPage()}
          mailServiceUrl={mailServiceUrl}
        />
      </ErrorBoundary>,
      root,
    )
  } catch {
    showAppFailure()
  }
}
