/** @jsxImportSource hono/jsx/dom */
import { useEffect, useRef } from 'hono/jsx/dom'

type Props = {
  refused: boolean
  busy: boolean
  onGive: (key: string) => void
  onGiveUp: () => void
}

/** Asks for the items API key when a write was answered 401; the write is retried with it. */
export function KeyPrompt({ refused, busy, onGive, onGiveUp }: Props) {
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.focus(), [])
  useEffect(() => {
    if (refused) input.current?.focus()
  }, [refused])

  const submit = (event: Event) => {
    event.preventDefault()
    const key = input.current?.value.trim() ?? ''
    if (key) onGive(key)
    else input.current?.focus()
  }

  return (
    <form
      class="card key-form"
      aria-labelledby="key-heading"
      onSubmit={submit}
      onKeyDown={(event: KeyboardEvent) => event.key === 'Escape' && onGiveUp()}
    >
      <h2 id="key-heading">The items service needs its API key</h2>
      <p class="hint" id="key-hint">
        Changes need the key set as ITEMS_APIKEY. It is kept for this tab only and sent with
        changes; the change you made is sent again once you give it.
      </p>
      <div class="fields key-fields">
        <label>
          Items API key
          <input
            ref={input}
            name="apikey"
            type="password"
            required
            autocomplete="off"
            aria-describedby="key-hint key-error"
            aria-invalid={refused ? 'true' : undefined}
          />
        </label>
        <button type="submit" disabled={busy}>
          Use key
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={onGiveUp}>
          Cancel
        </button>
      </div>
      <p class="message error" role="alert" id="key-error">
        {refused ? 'Wrong key: the items service refused it. Check the key and try again.' : ''}
      </p>
    </form>
  )
}
