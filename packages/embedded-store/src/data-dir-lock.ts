import { createHash } from 'node:crypto'
import { chmod, realpath, unlink } from 'node:fs/promises'
import { connect, createServer, type Server } from 'node:net'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { ownerOnly } from './owner-only.js'

/** Who holds a data directory, as its holder tells whoever asks. */
export type LockOwner = { pid: number; host: string; since: string; service: string }

/** Another live process holds the data directory. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly owner: LockOwner | null,
  ) {
    const who = owner
      ? `${owner.service} (pid ${owner.pid} on ${owner.host}, running since ${owner.since})`
      : 'another process'
    super(`DATA_DIR ${dir} is in use by ${who}; stop it first, or give this one another DATA_DIR`)
    this.name = 'DataDirInUseError'
  }
}

/** Held while the process owns the directory; `release()` gives it up. */
export type DataDirLock = { release(): Promise<void> }

// sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included.
const maxSocketPath = 103

/**
 * Makes this process the one owner of `dir` for `service`, or throws DataDirInUseError naming
 * the owner. The lock is a Unix socket listening in the directory: the kernel closes it when its
 * process dies, however it dies, so a lock left by a killed process is noticed at once (nothing
 * answers) and taken over, while a live owner answers with who it is. A pid file cannot tell a
 * dead owner from a new process that was given the same pid.
 */
export async function lockDataDir(dir: string, service: string): Promise<DataDirLock> {
  const path = await socketPath(dir, service)
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    service,
  }
  const answer = `${JSON.stringify(owner)}\n`
  for (let attempt = 0; attempt < 3; attempt++) {
    const server = createServer((socket) => socket.end(answer))
    try {
      await listen(server, path)
      // The lock must not keep the process alive: the service's own server does that.
      server.unref()
      // Only its owner's processes may ask who holds the directory (which is 0700 already, so a
      // failure is no reason to stop); a socket in Linux's abstract namespace has no file.
      if (!path.startsWith('\0')) await chmod(path, ownerOnly.file).catch(() => {})
      return { release: () => new Promise((resolve) => server.close(() => resolve())) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    }
    const holder = await askOwner(path)
    if (holder !== 'nobody') throw new DataDirInUseError(dir, holder)
    // Left by a process that died: nothing listens on it any more.
    await unlink(path).catch(() => {})
  }
  throw new DataDirInUseError(dir, null)
}

/** The socket's path in `dir`; a hashed name in Linux's abstract namespace when that is too long. */
async function socketPath(dir: string, service: string): Promise<string> {
  const path = join(dir, `${service}.lock`)
  if (Buffer.byteLength(path) <= maxSocketPath) return path
  if (process.platform !== 'linux') {
    throw new Error(`DATA_DIR ${dir} is too long a path for the lock socket: choose a shorter one`)
  }
  const real = await realpath(dir)
  return `\0movies-and-mail-${createHash('sha256').update(`${real}\0${service}`).digest('hex')}`
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ path, exclusive: true }, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/** What the process listening on `path` says of itself; 'nobody' when nothing listens. */
function askOwner(path: string): Promise<LockOwner | null | 'nobody'> {
  return new Promise((resolve) => {
    let said = ''
    const socket = connect({ path })
    socket.setEncoding('utf8')
    socket.setTimeout(2_000, () => socket.destroy())
    socket.on('data', (text: string) => {
      said += text
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'nobody' : null)
    })
    socket.on('close', () => resolve(parseOwner(said)))
  })
}

function parseOwner(text: string): LockOwner | null {
  try {
    return JSON.parse(text) as LockOwner
  } catch {
    return null
  }
}
