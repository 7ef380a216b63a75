/** @jsxImportSource hono/jsx/dom */
import { useEffect, useRef, useState } from 'hono/jsx/dom'
import { EditBase, type ReadVersion } from './edit-base.js'
import type { Item } from './items-api.js'
import { useErrorMessage } from './use-error-message.js'

/** A delete's outcome: done, failed (the list says why), or refused with a message for the row. */
export type DeleteOutcome = 'deleted' | 'failed' | { refused: string }

type Props = {
  movie: Item
  readVersion: ReadVersion
  onDelete: (base: EditBase) => Promise<DeleteOutcome>
  onClose: () => void
}

/**
 * "Delete <name>? Yes / No" in the row, focus on No. Yes deletes the version the question was
 * asked about: changed elsewhere since, the row says so and asks again.
 */
export function DeleteQuestion({ movie, readVersion, onDelete, onClose }: Props) {
  const [base] = useState(() => new EditBase(readVersion, movie))
  const [deleting, setDeleting] = useState(false)
  const [refusal, setRefusal] = useErrorMessage()
  // A ref, not state: a second click can come before the disabled button is rendered.
  const inFlight = useRef(false)
  const noButton = useRef<HTMLButtonElement>(null)
  useEffect(() => noButton.current?.focus(), [])
  // Back on No once a refusal is told (the buttons were disabled meanwhile); not when the message
  // goes, which may be for a success elsewhere, where the focus is.
  useEffect(() => {
    if (refusal) noButton.current?.focus()
  }, [refusal])

  const confirm = async () => {
    if (inFlight.current) return
    inFlight.current = true
    setRefusal('')
    setDeleting(true)
    const outcome = await onDelete(base)
    // Deleted: the row goes with the movie.
    if (outcome === 'deleted') return
    inFlight.current = false
    setDeleting(false)
    if (outcome === 'failed') onClose()
    else setRefusal(outcome.refused)
  }

  // The question takes the place of the row's buttons, No where Delete was: the second click of
  // a double click on Delete would answer it unseen. A click that is part of a multi-click
  // (`detail` above 1) is not an answer; one click, or Enter and Space (`detail` 0), is.
  const answer = (act: () => unknown) => (event: MouseEvent) => {
    if (event.detail <= 1) void act()
  }

  const questionId = `delete-question-${movie._id}`
  return (
    <li
      class="movie confirming"
      onKeyDown={(event: KeyboardEvent) => event.key === 'Escape' && !deleting && onClose()}
    >
      <span class="movie-id">{movie.id}</span>
      <span class="confirm-question" id={questionId}>
        {deleting ? `Deleting ${movie.name}…` : `Delete ${movie.name}?`}
      </span>
      <fieldset class="actions" aria-labelledby={questionId} aria-busy={deleting}>
        <button type="button" class="danger" disabled={deleting} onClick={answer(confirm)}>
          Yes
        </button>
        <button
          type="button"
          class="secondary"
          ref={noButton}
          disabled={deleting}
          onClick={answer(onClose)}
        >
          No
        </button>
      </fieldset>
      <p class="message error" role="alert">
        {refusal}
      </p>
    </li>
  )
}
