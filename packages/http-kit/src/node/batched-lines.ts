/**
 * Collects lines and hands them to `write` once per turn of the event loop (or sooner, past
 * `maxBytes`): one write of many lines instead of a system call for each request's log line.
 * `flush()` writes what is pending at once, e.g. before the process exits.
 */
export function batchedLines(
  write: (text: string) => void,
  { maxBytes = 64 * 1024 }: { maxBytes?: number } = {},
): { write: (line: string) => void; flush: () => void } {
  let pending: string[] = []
  let size = 0
  let scheduled = false

  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    const text = pending.join('')
    pending = []
    size = 0
    write(text)
  }

  return {
    write(line) {
      pending.push(line)
      size += line.length
      if (size >= maxBytes) flush()
      else if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush,
  }
}
