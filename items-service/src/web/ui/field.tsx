/** @jsxImportSource hono/jsx/dom */

type Props = {
  /** Prefix of the message's id, unique on the page (one per form). */
  form: string
  name: string
  label: string
  error?: string | undefined
  value?: string
  maxLength: number
  placeholder?: string
  autocomplete?: string
  hiddenLabel?: boolean
}

/** A labelled text field whose error, if any, is tied to it (`aria-invalid`, `aria-describedby`). */
export function Field({ form, name, label, error, hiddenLabel, ...input }: Props) {
  const errorId = `${form}-${name}-error`
  return (
    <div class="field">
      <label>
        <span class={hiddenLabel ? 'visually-hidden' : undefined}>{label}</span>
        <input
          name={name}
          required
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
      </label>
      <span class="field-error" id={errorId}>
        {error ?? ''}
      </span>
    </div>
  )
}
