import { readFileSync } from 'node:fs'

/** File descriptors kept for the store, the log and ordinary requests, out of the limit. */
export const reservedDescriptors = 256

/**
 * How many files this process may have open (the soft limit, `ulimit -n`), as Linux tells it in
 * `/proc/self/limits`; undefined where it does not (another system) or it is unlimited.
 */
export function openFilesLimit(limits = '/proc/self/limits'): number | undefined {
  let text: string
  try {
    text = readFileSync(limits, 'utf8')
  } catch {
    return undefined
  }
  const soft = /^Max open files\s+(\d+)/m.exec(text)?.[1]
  return soft === undefined ? undefined : Number(soft)
}

/**
 * The most connections, and the most event streams, a process with `limit` descriptors can hold
 * and still open its files and sockets: `reservedDescriptors` are kept, and a stream is one
 * connection, of which a quarter stay for other requests. Each is at most what was configured.
 * @example withinOpenFiles({ connections: Infinity, streams: 10_000 }, 1024) // { connections: 768, streams: 576 }
 */
export function withinOpenFiles(
  wanted: { connections: number; streams: number },
  limit: number | undefined,
): { connections: number; streams: number } {
  if (limit === undefined) return wanted
  const room = Math.max(limit - reservedDescriptors, 16)
  const connections = Math.min(wanted.connections, room)
  return { connections, streams: Math.min(wanted.streams, Math.floor((connections * 3) / 4)) }
}
