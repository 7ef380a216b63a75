import type { Change } from './live-list.js'

/** How the page follows the service's changes: as they happen, trying again, or not at all. */
export type StreamState = 'connecting' | 'live' | 'interrupted' | 'unavailable'

type Listener = {
  change: (change: Change) => void
  /** Changes were missed (the feed said so, or a new stream began): read the list anew. */
  reload: () => void
  state: (state: StreamState) => void
}

const kinds = ['created', 'updated', 'deleted'] as const
const firstRetryMs = 2000
const lastRetryMs = 60_000

/**
 * Follows `url`, the service's Server-Sent Events of changes, until the returned function is
 * called. EventSource reconnects by itself after a dropped connection, sending the last event
 * id, and the service answers what was missed (or `reload`). A stream that could not start at
 * all (an error status) is asked why: 501 (the store cannot follow changes) or 404 (a service
 * without the feed) ends the following; anything else is tried again later, with a new stream
 * that starts with a reload since it resumes nothing.
 */
export function followChanges(url: string, listener: Listener): () => void {
  let source: EventSource | null = null
  let retryMs = firstRetryMs
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  const connect = () => {
    const stream = new EventSource(url)
    source = stream
    let opened = false
    listener.state('connecting')
    stream.addEventListener('open', () => {
      retryMs = firstRetryMs
      listener.state('live')
      // The list was read before this stream began: what changed in between is read anew.
      if (!opened) listener.reload()
      opened = true
    })
    for (const kind of kinds) {
      stream.addEventListener(kind, (event) => {
        const item = parseItem((event as MessageEvent<string>).data)
        if (item) listener.change({ kind, item })
        else listener.reload()
      })
    }
    stream.addEventListener('reload', () => listener.reload())
    stream.addEventListener('error', () => {
      if (stream.readyState === EventSource.CONNECTING) return listener.state('interrupted')
      stream.close()
      void askWhy()
    })
  }

  const askWhy = async () => {
    const controller = new AbortController()
    let status = 0
    try {
      status = (await fetch(url, { signal: controller.signal })).status
    } catch {
      // Unreachable: tried again below.
    }
    controller.abort()
    if (stopped) return
    if (status === 501 || status === 404) return listener.state('unavailable')
    listener.state('interrupted')
    timer = setTimeout(connect, retryMs)
    retryMs = Math.min(retryMs * 2, lastRetryMs)
  }

  connect()
  return () => {
    stopped = true
    clearTimeout(timer)
    source?.close()
  }
}

/** The item of an event's data; null when it is not one (the list is then read anew). */
function parseItem(data: string): Change['item'] | null {
  try {
    const item = JSON.parse(data) as Change['item']
    return typeof item?._id === 'string' ? item : null
  } catch {
    return null
  }
}
