import { useState } from 'hono/jsx/dom'
import { describeFailure, describeNetworkError } from './api-error.js'

type FormSubmit = {
  /** The service's name, for the message when it cannot be reached. */
  service: string
  /** Sends the request, reading the form's fields (trimmed) by name. */
  send: (field: (name: string) => string) => Promise<Response>
  /** Runs for a 2xx answer. */
  onSuccess: (response: Response, form: HTMLFormElement) => void | Promise<void>
}

/**
 * What every form of the page does on submit: send, then act on success or show the server's
 * message (or that the service could not be reached), with the submit button busy meanwhile.
 */
export function useFormSubmit({ service, send, onSuccess }: FormSubmit) {
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  const submit = async (event: Event) => {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    const data = new FormData(form)
    setBusy(true)
    setError('')
    try {
      const response = await send((name) => String(data.get(name) ?? '').trim())
      if (response.ok) await onSuccess(response, form)
      else setError(await describeFailure(response))
    } catch (failure) {
      setError(describeNetworkError(failure, service))
    } finally {
      setBusy(false)
    }
  }

  return { error, busy, submit }
}
