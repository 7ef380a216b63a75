/** @jsxImportSource hono/jsx/dom */
import { useState } from 'hono/jsx/dom'
import { useFormSubmit } from './use-form-submit.js'

type Sent = { id: string; message: string }
type Props = { mailServiceUrl: string; announce: (message: string) => void }

/** The mail-service in outbox mode keeps mails and answers ids of this domain. */
const isOutboxId = (id: string) => /@outbox\.local>?$/.test(id)

/** The "Send mail" form: posts to the mail-service and shows the provider's id and message. */
export function SendMailForm({ mailServiceUrl, announce }: Props) {
  const [sent, setSent] = useState<Sent | null>(null)
  const { error, busy, submit } = useFormSubmit({
    service: 'mail service',
    send: (field) => {
      setSent(null)
      return fetch(new URL('sendmail', withSlash(mailServiceUrl)), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-apikey': field('apikey') },
        body: JSON.stringify({ email: field('email'), name: field('name') }),
      })
    },
    onSuccess: async (response, form) => {
      const answer = (await response.json()) as Sent
      setSent(answer)
      const email = String(new FormData(form).get('email') ?? '').trim()
      announce(isOutboxId(answer.id) ? outboxNote : `Mail sent to ${email}`)
    },
  })

  return (
    <form class="card mail-form" aria-label="Send mail" onSubmit={submit}>
      <h2>Send mail</h2>
      <div class="fields">
        <label>
          API key
          <input name="apikey" type="password" required autocomplete="off" />
        </label>
        <label>
          Email
          <input name="email" type="email" required maxLength={254} placeholder="ada@example.com" />
        </label>
        <label>
          Name
          <input name="name" required maxLength={100} placeholder="Ada" />
        </label>
        <button type="submit" disabled={busy}>
          Send
        </button>
      </div>
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
        </dl>
      )}
    </form>
  )
}

const outboxNote = 'Mail kept in the outbox: nothing was delivered (outbox mode)'

/** `new URL('sendmail', base)` keeps a base path only when it ends with a slash. */
function withSlash(url: string): URL {
  const base = new URL(url, window.location.href)
  if (!base.pathname.endsWith('/')) base.pathname += '/'
  return base
}
