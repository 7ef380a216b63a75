import { useEffect, useRef, useState } from 'hono/jsx/dom'
import { failureOf } from './api-error.js'
import type { Write } from './api-key.js'
import type { Item, ItemsClient } from './items-api.js'
import { LiveList } from './live-list.js'
import { RemoteNotice } from './remote-notice.js'

/** How the page follows the service's changes: as they happen, trying again, or not at all. */
export type StreamState = 'connecting' | 'live' | 'interrupted' | 'unavailable'

/**
 * A write whose response, the whole list, becomes the shown list. `keys` name the changes it
 * makes (`created:<id>`, `updated:<_id>`, `deleted:<_id>`), so that their echo in the feed is
 * not announced as someone else's.
 */
export type Send = (
  keys: string[],
  request: (items: ItemsClient) => Promise<Item[]>,
) => Promise<Item[]>

type Options = { items: ItemsClient; write: Write; announce: (message: string) => void }

/**
 * The movie list of the page: read, then kept current by the service's change feed, filtered by
 * genre on the service (`GET /items?genre=`) and by the same rule for the feed.
 */
export function useMovies({ items, write, announce }: Options) {
  const [live] = useState(() => new LiveList())
  const [notice] = useState(() => new RemoteNotice(announce))
  const [movies, setMovies] = useState<Item[] | null>(null)
  const [genre, setGenreShown] = useState('')
  const [genres, setGenres] = useState<string[]>([])
  const [loadError, setLoadError] = useState('')
  const [stream, setStream] = useState<StreamState>('connecting')
  /** Only the latest read is shown: an earlier one (another genre) may answer after it. */
  const reads = useRef(0)

  const show = () => {
    setMovies(live.view())
    setGenres(live.genres)
  }

  const load = async () => {
    const mark = live.mark()
    const asked = live.genre
    reads.current = (reads.current ?? 0) + 1
    const read = reads.current
    try {
      const list = await items.list({ genre: asked || undefined })
      if (read !== reads.current) return
      live.adopt(list, mark, { whole: asked === '' })
      setLoadError('')
      show()
    } catch (error) {
      if (read === reads.current) setLoadError(failureOf(error, 'items service').message)
    }
  }

  useEffect(() => {
    void load()
    // The subscription reconnects by itself, resuming after the last event it saw; a 501 (the
    // store cannot follow changes) or a service without the feed ends it.
    const subscription = items.subscribe(
      (event) => {
        if (event.type === 'reload') return void load()
        notice.note(event, live.apply(event))
        show()
      },
      {
        onOpen: () => {
          setStream('live')
          // A stream that resumes nothing began after the list was read: read it anew.
          if (subscription.lastEventId === undefined) void load()
        },
        onError: (_error, retryInMs) =>
          setStream(retryInMs === undefined ? 'unavailable' : 'interrupted'),
      },
    )
    return () => {
      subscription.close()
      notice.stop()
    }
  }, [])

  const send: Send = async (keys, request) => {
    const done = notice.expect(keys)
    const mark = live.mark()
    try {
      const list = await write(request)
      live.adopt(list, mark, { whole: true })
      show()
      return list
    } finally {
      done()
    }
  }

  const chooseGenre = (chosen: string) => {
    live.genre = chosen
    setGenreShown(chosen)
    void load()
  }

  return {
    movies,
    genre,
    genres,
    chooseGenre,
    loadError,
    stream,
    send,
    /** Keeps a movie shown while it is edited, whatever the feed says of it. */
    hold: (movie: Item) => live.hold(movie),
    release: (_id: string) => {
      live.release(_id)
      show()
    },
  }
}
