/** @jsxImportSource hono/jsx/dom */
import { useEffect, useState } from 'hono/jsx/dom'

/** A send's record at the mail-service (the `Location` of its 201), and the key that reads it. */
export type TrackedMail = { recordUrl: string; apiKey: string }

/** What the page last learnt of the record. */
type Seen =
  | { kind: 'status'; status: string; detail?: string; eventsOff: boolean; gaveUp?: boolean }
  | { kind: 'unread'; why: string }

/** The statuses after which nothing more is expected of a mail (the mail-service's). */
const finalStatuses = new Set(['delivered', 'failed', 'complained', 'unsubscribed', 'outbox'])
/** The waits between reads: 1 s, doubled after each read up to 16 s; none after 5 minutes. */
const firstWaitMs = 1_000
const longestWaitMs = 16_000
const followForMs = 5 * 60_000

export const noEventsNote =
  'No delivery events configured: the mail-service files none (its ' +
  'MAILGUN_WEBHOOK_SIGNING_KEY is not set), so this status will not change.'

/**
 * The status of a sent mail as it changes: its record read at once, then again after waits
 * that grow (1 s up to 16 s) until its status is final, or for at most 5 minutes; a mail-service
 * that files no delivery events is read once, and says so. A new send, or leaving, stops it.
 */
export function MailStatus({ recordUrl, apiKey }: TrackedMail) {
  const [seen, setSeen] = useState<Seen | undefined>(undefined)
  useEffect(() => {
    setSeen(undefined)
    const stop = new AbortController()
    follow({ recordUrl, apiKey }, stop.signal, setSeen).catch(() => {})
    return () => stop.abort()
  }, [recordUrl, apiKey])

  if (!seen) return <StatusRows status="…" note="Reading the status" />
  if (seen.kind === 'unread') return <StatusRows status="unknown" note={seen.why} />
  const { status, detail, eventsOff, gaveUp } = seen
  let note = detail ?? ''
  if (eventsOff && !finalStatuses.has(status)) note = noEventsNote
  else if (gaveUp) note = 'Not final after 5 minutes: the mail log (GET /maillog) tells it later.'
  else if (!finalStatuses.has(status)) note = note || 'Watching for changes…'
  return <StatusRows status={status} note={note} />
}

function StatusRows({ status, note }: { status: string; note: string }) {
  return (
    <>
      <dt>Status</dt>
      <dd class="mail-status" aria-live="polite">
        {status}
      </dd>
      {note && <dd class="mail-status-note">{note}</dd>}
    </>
  )
}

/** Reads the record until there is nothing more to learn, showing each answer with `show`. */
async function follow(mail: TrackedMail, signal: AbortSignal, show: (seen: Seen) => void) {
  const until = Date.now() + followForMs
  for (let wait = firstWaitMs; ; wait = Math.min(wait * 2, longestWaitMs)) {
    const seen = await read(mail, signal)
    const done = seen.kind === 'unread' || seen.eventsOff || finalStatuses.has(seen.status) || false
    const gaveUp = !done && Date.now() + wait > until
    show(seen.kind === 'status' && gaveUp ? { ...seen, gaveUp } : seen)
    if (done || gaveUp) return
    await pause(wait, signal)
  }
}

/** One read of the record: its status, or why it could not be read. */
async function read({ recordUrl, apiKey }: TrackedMail, signal: AbortSignal): Promise<Seen> {
  let response: Response
  try {
    response = await fetch(recordUrl, { headers: { 'x-apikey': apiKey }, signal })
  } catch (error) {
    if (signal.aborted) throw error
    return { kind: 'unread', why: 'The mail service could not be reached to read the status.' }
  }
  if (!response.ok) {
    return { kind: 'unread', why: `The mail service answered ${response.status} to the status.` }
  }
  const record = (await response.json()) as { status: string; events?: MailEvent[] }
  const eventsOff = response.headers.get('mail-events') === 'off'
  const detail = failureDetail(record.events ?? [])
  return { kind: 'status', status: record.status, eventsOff, ...(detail && { detail }) }
}

type MailEvent = { event: string; description?: string; code?: number }

/** What the receiving server said of the latest failure, when the latest event is one. */
function failureDetail(events: MailEvent[]): string | undefined {
  const last = events.at(-1)
  if (last?.event !== 'failed' || !last.description) return undefined
  return last.code === undefined ? last.description : `${last.description} (${last.code})`
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(signal.reason)
    })
  })
}
