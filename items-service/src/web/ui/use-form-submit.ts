import { useState } from 'hono/jsx/dom'
import { blankFields, describeNetworkError, type Failure, readFailure } from './api-error.js'
import { useErrorMessage } from './use-error-message.js'

type FormSubmit = {
  /** The service's name, for the message when it cannot be reached. */
  service: string
  /** Fields that must not be blank, checked before sending with the server's words. */
  required?: readonly string[]
  /**
   * Sends the request, reading the form's fields (trimmed) by name; resolves with its answer,
   * or with the message (and field messages) to show when it was refused in a way the caller
   * explains itself.
   */
  send: (field: (name: string) => string) => Promise<Response | string | Failure>
  /** Runs for a 2xx answer. */
  onSuccess: (response: Response, form: HTMLFormElement) => void | Promise<void>
}

/**
 * What every form of the page does on submit: check blank fields, send, then act on success or
 * show the server's message (issues at their field, focus on the first), busy meanwhile.
 * A message lasts until the user edits a field (that field's own message goes too), submits
 * again, or succeeds at something else on the page: the form gives `onInput` for the first.
 */
export function useFormSubmit({ service, required = [], send, onSuccess }: FormSubmit) {
  const [error, setError] = useErrorMessage()
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)

  const showFieldErrors = (form: HTMLFormElement, fields: Record<string, string>) => {
    setFieldErrors(fields)
    const first = Object.keys(fields)[0]
    if (first) form.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus()
  }

  const showFailure = (form: HTMLFormElement, failure: Failure) => {
    setError(failure.message)
    showFieldErrors(form, failure.fields)
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    if (busy) return
    const data = new FormData(form)
    const field = (name: string) => String(data.get(name) ?? '').trim()
    setError('')
    const blank = blankFields(Object.fromEntries(required.map((name) => [name, field(name)])))
    if (Object.keys(blank).length > 0) return showFieldErrors(form, blank)
    setFieldErrors({})
    setBusy(true)
    try {
      const response = await send(field)
      if (typeof response === 'string') setError(response)
      else if (!(response instanceof Response)) showFailure(form, response)
      else if (response.ok) await onSuccess(response, form)
      else showFailure(form, await readFailure(response, required))
    } catch (failure) {
      setError(describeNetworkError(failure, service))
    } finally {
      setBusy(false)
    }
  }

  /** The user changed a field: what was said of the form and of that field is out of date. */
  const onInput = (event: Event) => {
    const name = (event.target as HTMLInputElement).name
    if (error) setError('')
    setFieldErrors((fields) => {
      if (!(name in fields)) return fields
      const { [name]: _edited, ...others } = fields
      return others
    })
  }

  return { error, fieldErrors, busy, submit, onInput }
}
