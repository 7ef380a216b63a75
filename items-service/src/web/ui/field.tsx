/** @jsxImportSource hono/jsx/dom */

type Props = {
  /** Prefix of the message's id, unique on the page (one per form). */
  form: string
  name: string
  label: string
  type?: 'text' | 'email' | 'password'
  error?: string | undefined
  /** The id of a note elsewhere in the form that says what to give (it is read with the field). */
  noteId?: string
  value?: string
  maxLength?: number
  placeholder?: string
  autocomplete?: string
}

/**
 * A labelled text field whose error, if any, and note, if any, are tied to it (`aria-invalid`,
 * `aria-describedby`).
 */
export function Field({ form, name, label, error, noteId, ...input }: Props) {
  const errorId = `${form}-${name}-error`
  const describedBy = [error ? errorId : '', noteId ?? ''].filter(Boolean).join(' ')
  return (
    <div class="field">
      <label>
        <span>{label}</span>
        <input
          name={name}
          required
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={describedBy || undefined}
          {...input}
        />
      </label>
      <span class="field-error" id={errorId}>
        {error ?? ''}
      </span>
    </div>
  )
}
