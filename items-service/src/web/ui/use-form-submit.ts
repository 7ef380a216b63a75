import { useState } from 'hono/jsx/dom'
import { blankFields, type Failure, failureOf } from './api-error.js'
import { useErrorMessage } from './use-error-message.js'

type FormSubmit<T> = {
  /** The service's name, for the message when it cannot be reached. */
  service: string
  /** Fields that must not be blank, checked before sending with the server's words. */
  required?: readonly string[]
  /**
   * Sends the request, reading the form's fields (trimmed) by name; resolves with its response, or
   * rejects with why not (`failureOf` words it: a `Refusal` carries words of its own).
   */
  send: (field: (name: string) => string) => Promise<T>
  /** Runs with the response of a request that succeeded. */
  onSuccess: (response: T, form: HTMLFormElement) => void | Promise<void>
}

/**
 * What every form of the page does on submit: check blank fields, send, then act on success or
 * show the server's message (issues at their field, focus on the first), busy meanwhile.
 * A message lasts until the user edits a field (that field's own message goes too), submits
 * again, or succeeds at something else on the page: the form gives `onInput` for the first.
 */
export function useFormSubmit<T>({ service, required = [], send, onSuccess }: FormSubmit<T>) {
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
      await onSuccess(await send(field), form)
    } catch (failure) {
      showFailure(form, failureOf(failure, service, required))
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
