import { MongoStandIn } from '@movies-and-mail/test-kit'
import { afterEach } from 'vitest'
import { MongoState } from '../../src/stores/mongo/mongo-state.js'

/** Each operation's wait for the stand-in. */
export const timeoutMs = 500
/** The timeout and a slow machine's scheduling. */
export const boundMs = 2_000

/**
 * The service's MongoDB state connected to a fresh stand-in for each test of the file, both
 * closed after it: `open()` starts them, `standIn()` and `state()` reach them.
 */
export function useStandInState() {
  let standIn: MongoStandIn | undefined
  let state: MongoState | undefined
  afterEach(async () => {
    standIn?.answer()
    await state?.close()
    await standIn?.close()
    state = undefined
    standIn = undefined
  })
  return {
    async open(): Promise<MongoState> {
      standIn = await MongoStandIn.start()
      state = await MongoState.connect({
        url: standIn.url,
        dbName: 'data',
        timeoutMs,
        retentionDays: 90,
      })
      return state
    },
    standIn: () => standIn as MongoStandIn,
    state: () => state as MongoState,
  }
}

/** Only the named fields of what was sent: the driver adds its own (`lsid`, `$db`, ...). */
export const pick = (sent: Record<string, unknown> | undefined, ...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, sent?.[name]]))

/** How `operation` settled, and after how many milliseconds. */
export async function timed(
  operation: () => Promise<unknown>,
): Promise<{ error: unknown; ms: number }> {
  const started = performance.now()
  const error = await operation().then(
    () => undefined,
    (error: unknown) => error,
  )
  return { error, ms: performance.now() - started }
}
