import type { BuiltEntry, Exit } from './built-entry.js'
import { trickleForever } from './http-checks.js'

export type StopDuringTrickle = {
  exit: Exit
  /** From SIGTERM to the exit. */
  tookMs: number
  /** Whether the trickling upload was closed unanswered. */
  cut: boolean
}

/**
 * Starts an upload to `url` that never ends, sends `entry` SIGTERM once the server holds its
 * head, and reports how the stop went: what a graceful stop with a deadline must survive.
 */
export async function stopDuringTrickle(
  entry: BuiltEntry,
  url: string,
  headers: Record<string, string> = {},
): Promise<StopDuringTrickle> {
  const upload = trickleForever(url, headers)
  // Time for the server to read the request's head and start waiting for the rest.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const signalled = Date.now()
  entry.kill('SIGTERM')
  const exit = await entry.exited
  const tookMs = Date.now() - signalled
  const cut = await upload.cut
  upload.stop()
  return { exit, tookMs, cut }
}
