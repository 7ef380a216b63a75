import type { RequestListener } from 'node:http'

/**
 * A request listener that loads the real one on its first request and hands that request, and
 * every later one, to it. `load` runs once; when it fails, `onFailure` decides what the process
 * does (the requests waiting on it get no answer).
 */
export function loadedOnFirstUse(
  load: () => Promise<RequestListener>,
  onFailure: (error: unknown) => void,
): RequestListener {
  let loaded: RequestListener | undefined
  let loading: Promise<RequestListener> | undefined
  return function handOver(request, response) {
    if (loaded) return loaded(request, response)
    loading ??= load().then((listener) => {
      loaded = listener
      return listener
    })
    loading.then((listener) => listener(request, response), onFailure)
  }
}
