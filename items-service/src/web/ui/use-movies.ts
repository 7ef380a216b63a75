import { useEffect, useRef, useState } from 'hono/jsx/dom'
import type { ItemsClient, StoredItem } from '../../client/items-client.js'
import { describeFailure, describeNetworkError } from './api-error.js'
import type { Write } from './api-key.js'
import { followChanges, type StreamState } from './change-stream.js'
import { LiveList } from './live-list.js'
import { RemoteNotice } from './remote-notice.js'

/**
 * A write whose answer, the whole list, becomes the shown list. `keys` name the changes it
 * makes (`created:<id>`, `updated:<_id>`, `deleted:<_id>`), so that their echo in the feed is
 * not announced as someone else's.
 */
export type Send = (keys: string[], request: () => Promise<Response>) => Promise<Response>

type Options = { client: ItemsClient; write: Write; announce: (message: string) => void }

/**
 * The movie list of the page: read once, then kept current by the service's change feed,
 * filtered by genre on the service (`GET /items?genre=`) and by the same rule for the feed.
 */
export function useMovies({ client, write, announce }: Options) {
  const [live] = useState(() => new LiveList())
  const [notice] = useState(() => new RemoteNotice(announce))
  const [movies, setMovies] = useState<StoredItem[] | null>(null)
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
      const response = asked
        ? await client.items.$get({ query: { genre: asked } })
        : await client.items.$get()
      if (response.status !== 200) {
        if (read === reads.current) setLoadError(await describeFailure(response))
        return
      }
      const list = await response.json()
      if (read !== reads.current) return
      live.adopt(list, mark, { whole: asked === '' })
      setLoadError('')
      show()
    } catch (failure) {
      if (read === reads.current) setLoadError(describeNetworkError(failure, 'items service'))
    }
  }

  useEffect(() => {
    let stop = () => {}
    let stopped = false
    void load().then(() => {
      if (stopped) return
      stop = followChanges('/items/events', {
        change: (change) => {
          notice.note(change, live.apply(change))
          show()
        },
        reload: () => void load(),
        state: setStream,
      })
    })
    return () => {
      stopped = true
      stop()
      notice.stop()
    }
  }, [])

  const send: Send = async (keys, request) => {
    const done = notice.expect(keys)
    const mark = live.mark()
    try {
      const response = await write(request)
      if (response.ok) {
        live.adopt((await response.clone().json()) as StoredItem[], mark, { whole: true })
        show()
      }
      return response
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
    hold: (movie: StoredItem) => live.hold(movie),
    release: (_id: string) => {
      live.release(_id)
      show()
    },
  }
}
