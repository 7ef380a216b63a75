import { closeSync, openSync } from 'node:fs'
import { stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import { type Database, open, type RootDatabase } from 'lmdb'
import { checkMetaPages } from './check-meta-pages.js'
import { type DataDirLock, lockDataDir } from './data-dir-lock.js'
import { DiskReserve } from './disk-reserve.js'
import {
  narrowToOwner,
  ownerOnly,
  ownerOnlyDir,
  warnOnce,
  writeOwnerOnlyFile,
} from './owner-only.js'
import { readThroughInChild } from './read-through-in-child.js'
import { ignoreRejectedCommitEchoes } from './rejected-commit-echoes.js'
import { StoreDamagedError } from './storage-errors.js'

type EngineStats = { pageSize: number; lastPageNumber: number }

/**
 * One service's embedded store under DATA_DIR: an LMDB environment in `<service>.mdb`, owned by
 * this process alone (`<service>.lock`), where every commit is synced to the disk before it
 * resolves and has its room on the disk held before it starts.
 * @example
 * const env = await EmbeddedEnv.open('.data', 'items-service')
 * const movies = env.database('movies')
 * await env.commit(bytes.length, () => movies.put(key, bytes))
 */
export class EmbeddedEnv {
  readonly file: string
  readonly #root: RootDatabase
  readonly #lock: DataDirLock
  readonly #reserveFd: number
  readonly #reserve: DiskReserve
  /** The most room a failed commit needed (with the commits beside it), until as much is had. */
  #failedRoom: number | undefined
  /** The probe under way: the stores of one health check share it. */
  #probing: Promise<void> | undefined

  private constructor(
    readonly dataDir: string,
    readonly service: string,
    root: RootDatabase,
    lock: DataDirLock,
    writesAtOnce: number,
  ) {
    this.file = join(dataDir, `${service}.mdb`)
    this.#root = root
    this.#lock = lock
    this.#reserveFd = openSync(this.file, 'r+')
    const { pageSize } = this.#stats()
    this.#reserve = new DiskReserve(
      this.#reserveFd,
      pageSize,
      () => (this.#stats().lastPageNumber + 1) * pageSize,
    )
    // Until a commit succeeds, room for one is not known: a process started on a full disk says
    // so at its first probe (its first health check), not at the first write a client makes.
    // A request that makes several commits at once needs room for them together.
    this.#failedRoom = pageSize + (writesAtOnce - 1) * this.#reserve.bytesFor(pageSize)
  }

  /**
   * Takes `dataDir` for `service` (DataDirInUseError when another process has it) and opens its
   * store. The directory is made 0700 and the store's files 0600, wider modes narrowed; `warn`
   * hears of each that stays open to other users (by default, a line on stderr);
   * `writesAtOnce`, how many commits of a small value one request of the service may have under
   * way together (1 by default): the first probe asks for their room.
   * @throws StoreDamagedError naming the file when the engine cannot read it as it is
   */
  static async open(
    dataDir: string,
    service: string,
    {
      warn = warnOnce,
      writesAtOnce = 1,
    }: { warn?: (line: string) => void; writesAtOnce?: number } = {},
  ): Promise<EmbeddedEnv> {
    const warnings = new Set<string | undefined>([await ownerOnlyDir(dataDir)])
    const lock = await lockDataDir(dataDir, service)
    const file = join(dataDir, `${service}.mdb`)
    // Those there already before they are read, those the engine makes once it has made them.
    const narrowFiles = async () => {
      for (const path of [file, `${file}-lock`]) {
        warnings.add(await narrowToOwner(path, ownerOnly.file))
      }
    }
    let root: RootDatabase | undefined
    try {
      await narrowFiles()
      await checkMetaPages(file)
      // The engine's commits never leave a damaged page behind, even when the process dies;
      // damage comes from outside (a failing disk, a hand edit, a copy taken mid-write), so the
      // whole store is read through first unless the last process to hold it closed it.
      if (!(await takeCleanCloseMark(dataDir, service))) await readThroughInChild(file)
      const options = {
        path: file,
        maxDbs: 16,
        // The commit waits for its sync, so a resolved write survives a power loss, not only a
        // crash of the process (with overlapping sync it would resolve before).
        overlappingSync: false,
        // The mode of the files the engine makes (0664 otherwise); lmdb's types leave it out.
        permissionsMode: ownerOnly.file,
      }
      root = open(options)
      await narrowFiles()
      await checkSize(file, root)
      ignoreRejectedCommitEchoes()
      return new EmbeddedEnv(dataDir, service, root, lock, writesAtOnce)
    } catch (error) {
      await root?.close().catch(() => {})
      await lock.release()
      const message = (error as Error).message
      // The engine's own refusals (not an LMDB file, a wrong version, a corrupt page) say MDB_.
      if (error instanceof StoreDamagedError || !/MDB_/.test(message)) throw error
      throw new StoreDamagedError(file, message, { cause: error })
    } finally {
      for (const line of warnings) if (line) warn(line)
    }
  }

  /** A named database of this store; values are the bytes or strings given. */
  database<V extends Uint8Array | string = Uint8Array>(
    name: string,
    encoding: 'binary' | 'string' = 'binary',
  ): Database<V, string> {
    return this.#root.openDB<V, string>(name, { encoding })
  }

  /**
   * Runs `writes` (puts and removes, synchronously) as one transaction and resolves once it is
   * committed and synced. Nothing of a commit that fails remains; `writes` itself must not
   * throw (a key too long, say): the engine would still commit the puts made before the throw,
   * so what can be refused is refused before.
   * @param valueBytes the bytes the writes store, to hold room for them first
   * @throws StoreFullError | StoreUnavailableError
   */
  async commit(valueBytes: number, writes: () => void): Promise<void> {
    // The room this commit needs: its own, and that of the commits under way beside it.
    const room = valueBytes + this.#reserve.promisedBytes
    let release: (() => void) | undefined
    try {
      release = this.#reserve.claim(valueBytes)
      await this.#root.batch(writes)
      if (room >= (this.#failedRoom ?? 0)) this.#failedRoom = undefined
    } catch (error) {
      this.#failedRoom = Math.max(this.#failedRoom ?? 0, room)
      throw release ? await describeFailedCommit(error) : error
    } finally {
      release?.()
    }
  }

  /**
   * Resolves while commits succeed. Before the first commit of this process, and after one
   * failed (a full disk, say), resolves only once a
   * probe commit that asks for as much room as it needed, with the commits under way beside it,
   * succeeds: health follows the disk with no client write first, and says no while a write
   * like the one refused still would be, whichever of the stores in this environment made it.
   * @throws StoreFullError | StoreUnavailableError
   */
  probe(): Promise<void> {
    const room = this.#failedRoom
    if (room === undefined) return Promise.resolve()
    this.#probing ??= this.#probeWith(room).finally(() => {
      this.#probing = undefined
    })
    return this.#probing
  }

  async #probeWith(room: number): Promise<void> {
    const probes = this.database<string>('health', 'string')
    const at = new Date().toISOString()
    await this.commit(Math.max(at.length, room), () => probes.put('last-probe', at))
  }

  /** Closes the engine, then gives up the directory. */
  async close(): Promise<void> {
    await this.#root.close()
    closeSync(this.#reserveFd)
    await writeOwnerOnlyFile(cleanCloseMark(this.dataDir, this.service), '')
    await this.#lock.release()
  }

  #stats(): EngineStats {
    return this.#root.getStats() as EngineStats
  }
}

/** A file shorter than the pages its last commit uses would fault on the first read of them. */
async function checkSize(file: string, root: RootDatabase): Promise<void> {
  const { pageSize, lastPageNumber } = root.getStats() as EngineStats
  const { size } = await stat(file)
  if (size < (lastPageNumber + 1) * pageSize) {
    throw new StoreDamagedError(
      file,
      `cut short: ${size} bytes of ${(lastPageNumber + 1) * pageSize}`,
    )
  }
}

/** lmdb rejects a failed commit with a generic error; the system's error comes separately. */
async function describeFailedCommit(error: unknown): Promise<Error> {
  const detail = (error as { commitError?: Promise<unknown> }).commitError
  let cause: unknown = error
  if (detail)
    cause = await detail.then(
      () => error,
      (reason: unknown) => reason,
    )
  const code = (cause as { code?: unknown }).code
  // lmdb reports the system's errno as a number: 28 is ENOSPC, 122 EDQUOT.
  if (code === 28 || code === 122 || code === 'ENOSPC')
    return new StoreFullError(undefined, { cause })
  return new StoreUnavailableError('the store could not write', { cause })
}

/** A file that says the store's last holder closed it, and no process has opened it since. */
function cleanCloseMark(dataDir: string, service: string): string {
  return join(dataDir, `${service}.closed`)
}

/** Removes the mark before the store is opened; whether it was there. */
async function takeCleanCloseMark(dataDir: string, service: string): Promise<boolean> {
  try {
    await unlink(cleanCloseMark(dataDir, service))
    return true
  } catch {
    return false
  }
}
