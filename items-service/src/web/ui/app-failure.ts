/**
 * The page's "Something went wrong" message is in its HTML, shown by the stylesheet after a
 * moment unless the app hides it; so it appears when the script never runs at all. Once the
 * app runs, a script error or a failed render shows it again, at once.
 */
const message = () => document.getElementById('app-failed')

/** Hides the server-rendered failure message: the app has started. */
export function markAppStarted(): void {
  message()?.setAttribute('hidden', '')
}

/** Shows the failure message, instead of leaving a blank or frozen page. */
export function showAppFailure(): void {
  const element = message()
  if (!element) return
  element.removeAttribute('hidden')
  element.classList.add('now')
}

/** Shows the failure message on any uncaught error or rejected promise of the page. */
export function watchForFailures(): void {
  window.addEventListener('error', showAppFailure)
  window.addEventListener('unhandledrejection', showAppFailure)
}
