import type { Server } from 'node:http'
import { closeServer } from './close-server.js'

export type StopOptions = {
  /** How long requests in flight may take to finish before their connections are cut. */
  timeoutMs: number
  /** Closes what the service opened (its stores), once no request is in flight. */
  close: () => Promise<void>
  /** Where the lines about the stop go. */
  log: (line: string) => void
  /** Called with the reason when closing fails; the process should exit non-zero. */
  fail: (what: string, error: unknown) => void
  /**
   * Ends the responses that never end by themselves (event streams), first: they would hold the
   * stop until its deadline and be counted as cut.
   */
  endStreams?: () => void
}

/**
 * On SIGTERM or SIGINT, stops `server` gracefully: event streams end, no new connections,
 * requests in flight finish within `timeoutMs` (then their connections are cut), `close()` runs,
 * and the process exits 0. A second signal while stopping changes nothing.
 * @example stopOnSignals(server, { timeoutMs: 10_000, close: () => store.close(), log, fail })
 */
export function stopOnSignals(
  server: Server,
  { timeoutMs, close, log, fail, endStreams }: StopOptions,
): void {
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    log(`${signal}: finishing requests in flight for at most ${timeoutMs} ms, then stopping`)
    endStreams?.()
    const { cut } = await closeServer(server, timeoutMs)
    // Cutting a request that outlived the deadline is still an orderly stop: what was
    // acknowledged is stored, and the stores close as always; the line says what was cut.
    if (cut > 0) log(`closed ${cut} connection(s) still in flight after ${timeoutMs} ms`)
    await close()
    log('stopped')
    process.exit(0)
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stop(signal).catch((error: unknown) => fail('failed to stop cleanly', error))
    })
  }
}
