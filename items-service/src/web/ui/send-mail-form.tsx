/** @jsxImportSource hono/jsx/dom */
import { useState } from 'hono/jsx/dom'
import { Refusal, readFailure } from './api-error.js'
import { Field } from './field.js'
import { MailStatus, type TrackedMail } from './mail-status.js'
import { useFormSubmit } from './use-form-submit.js'

/** The provider's answer, and where the send's record is read (none for a replayed answer). */
type Sent = { id: string; message: string; tracked?: TrackedMail }
type Props = {
  mailServiceUrl: string
  announce: (message: string) => void
  /** Empties the page's status line: what it said of an earlier send is over once another goes. */
  clearNotice: () => void
}

/** The mail-service in outbox mode keeps mails and answers ids of this domain. */
const isOutboxId = (id: string) => /@outbox\.local>?$/.test(id)

/**
 * The "Send mail" form: posts to the mail-service and shows the provider's id and message, then
 * the send's status as it changes (`MailStatus`).
 */
export function SendMailForm({ mailServiceUrl, announce, clearNotice }: Props) {
  const [sent, setSent] = useState<Sent | null>(null)
  const { error, fieldErrors, busy, submit, onInput } = useFormSubmit({
    service: 'mail service',
    send: async (field) => {
      setSent(null)
      clearNotice()
      const response = await fetch(new URL('sendmail', withSlash(mailServiceUrl)), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-apikey': field('apikey') },
        body: JSON.stringify({ email: field('email'), name: field('name') }),
      })
      // Its body says only "Unauthorized": the user needs to hear which key, and where it is.
      if (response.status === 401) {
        throw new Refusal({
          message: keyRefused,
          fields: { apikey: 'Refused by the mail service' },
        })
      }
      if (!response.ok) throw new Refusal(await readFailure(response))
      const answer = (await response.json()) as Sent
      // `Location: /maillog/<id>`, read below the mail-service's base path.
      const location = response.headers.get('location')
      if (!location) return answer
      const recordUrl = new URL(location.replace(/^\//, ''), withSlash(mailServiceUrl)).href
      return { ...answer, tracked: { recordUrl, apiKey: field('apikey') } }
    },
    onSuccess: (answer, form) => {
      setSent(answer)
      const email = String(new FormData(form).get('email') ?? '').trim()
      announce(isOutboxId(answer.id) ? outboxNote : `Mail sent to ${email}`)
    },
  })

  return (
    <form class="card mail-form" aria-label="Send mail" onSubmit={submit} onInput={onInput}>
      <h2>Send mail</h2>
      <div class="fields">
        <Field
          form="mail"
          name="apikey"
          label="API key"
          type="password"
          autocomplete="off"
          error={fieldErrors.apikey}
          noteId="mail-key-where"
        />
        <Field
          form="mail"
          name="email"
          label="Email"
          type="email"
          maxLength={254}
          placeholder="ada@example.com"
        />
        <Field form="mail" name="name" label="Name" maxLength={100} placeholder="Ada" />
        <button type="submit" disabled={busy}>
          Send
        </button>
      </div>
      <p class="hint key-where" id="mail-key-where">
        The mail-service prints its key in a framed block at every start and keeps it in{' '}
        <code>mail-service/.data/mail-service.api-key</code> (<code>mail-service.api-key</code> in
        its <code>DATA_DIR</code>), unless <code>API_KEYS</code> is set: then use one of those.
      </p>
      <p class="message error" role="alert">
        {error}
      </p>
      {sent && (
        <dl class="message success" aria-label="Sent">
          <dt>Message id</dt>
          <dd class="mail-id">{sent.id}</dd>
          <dt>Provider says</dt>
          <dd>{sent.message}</dd>
          {isOutboxId(sent.id) && (
            <>
              <dt>Delivered</dt>
              <dd class="outbox-note">No: {outboxNote}</dd>
            </>
          )}
          {sent.tracked && <MailStatus {...sent.tracked} />}
        </dl>
      )}
    </form>
  )
}

const outboxNote = 'Mail kept in the outbox: nothing was delivered (outbox mode)'

const keyRefused =
  'The mail service refused this API key. Use the one it prints in a framed block at every ' +
  'start, also kept in mail-service/.data/mail-service.api-key (in its DATA_DIR), or one of ' +
  'its API_KEYS if that is set.'

/** `new URL('sendmail', base)` keeps a base path only when it ends with a slash. */
function withSlash(url: string): URL {
  const base = new URL(url, window.location.href)
  if (!base.pathname.endsWith('/')) base.pathname += '/'
  return base
}
