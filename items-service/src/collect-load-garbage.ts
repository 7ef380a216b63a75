import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * Runs one full garbage collection. Loading a large store leaves its parse buffers and
 * intermediate strings behind, and V8 may keep those pages resident for a long time; collecting
 * once at start gives that memory back. Node's documented way to reach `gc()` at run time.
 */
export function collectLoadGarbage(): void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
}
