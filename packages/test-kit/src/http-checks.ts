import { request } from 'node:http'

/** The directives of a Content-Security-Policy, by name, each with its sources as one string. */
export function cspDirectives(policy: string | null): Record<string, string> {
  return Object.fromEntries(
    (policy ?? '').split(';').map((directive) => {
      const [name = '', ...sources] = directive.trim().split(/\s+/)
      return [name, sources.join(' ')]
    }),
  )
}

/**
 * A POST to `url` that declares 1000 bytes, sends one every 100 ms and never ends: a client a
 * graceful stop must cut at its deadline. `cut` resolves true when the server closed it
 * unanswered, false when it answered.
 */
export function trickleForever(
  url: string,
  headers: Record<string, string> = {},
): { cut: Promise<boolean>; stop: () => void } {
  const upload = request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': '1000', ...headers },
  })
  const cut = new Promise<boolean>((resolve) => {
    upload.on('error', () => resolve(true))
    upload.on('response', () => resolve(false))
  })
  upload.write('{')
  const timer = setInterval(() => upload.write(' '), 100)
  return {
    cut,
    stop: () => {
      clearInterval(timer)
      upload.destroy()
    },
  }
}

/** What `run` throws, as `String(error)`; fails when it throws nothing. */
export function thrownBy(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    return String(error)
  }
  throw new Error('expected a throw, and nothing was thrown')
}
