import { createContext, useContext, useRef, useState } from 'hono/jsx/dom'

/**
 * How many of the user's actions on the page have succeeded so far (the App counts them). An
 * error message is about the attempt that failed; once a later action succeeds, anywhere on the
 * page, it no longer describes what is on screen (a refused id may be free by now), so it goes.
 */
export const Successes = createContext(0)

/**
 * The error message of a form or a row: `[shown, show]`. What `show` is given stays until it is
 * replaced (`show('')` when the user acts there again) or a later action of the page succeeds.
 */
export function useErrorMessage(): [string, (message: string) => void] {
  const successes = useContext(Successes)
  // Read when the message comes, not when the request went: a failure answered after a
  // success elsewhere is the newer news, and stays.
  const latest = useRef(successes)
  latest.current = successes
  const [error, setError] = useState({ message: '', after: successes })
  const show = (message: string) => setError({ message, after: latest.current ?? successes })
  return [error.after === successes ? error.message : '', show]
}
