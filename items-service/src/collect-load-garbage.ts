import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * Runs one full garbage collection when loading left a large heap. Loading a big store leaves
 * its parse buffers and intermediate strings behind, and V8 may keep those pages resident for
 * a long time; collecting once at start gives that memory back. A small heap is not worth the
 * pause. `setFlagsFromString('--expose-gc')` is Node's documented way to reach `gc()` at run time.
 */
export function collectLoadGarbage({ minHeapBytes = 64 * 1024 * 1024 } = {}): void {
  if (process.memoryUsage().heapUsed < minHeapBytes) return
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
}
