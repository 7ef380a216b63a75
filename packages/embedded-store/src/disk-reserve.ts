import { fdatasyncSync, fstatSync, writeSync } from 'node:fs'
import { StoreFullError } from '@movies-and-mail/store-kit'

/** Pages one write may dirty besides its value's own: a copy of each page on two tree paths. */
const pagesPerWrite = 16
const zeros = Buffer.alloc(1024 * 1024)

/**
 * Keeps room inside the engine's data file for every write before the engine is given it, so
 * the engine never meets a full disk: it writes its pages into space the file already holds.
 * The file grows ahead in steps (a quarter of its size, 1-64 MiB) by appending zeros, which the
 * engine never reads: it tracks its own last page. When even the room one write needs cannot be
 * had, the write is refused with StoreFullError before the engine sees it.
 *
 * Why: lmdb 3.5.6 overruns a heap buffer when it formats the message of a failed page write
 * (ENOSPC), which later aborts the process. On filesystems that overwrite in place (ext4, xfs,
 * tmpfs) writes into held space cannot fail for space; copy-on-write ones (btrfs, zfs) may still.
 */
export class DiskReserve {
  readonly #fd: number
  readonly #pageSize: number
  readonly #usedBytes: () => number
  /** Bytes promised to writes the engine has not committed yet. */
  #promised = 0

  /** @param usedBytes how much of the file the engine's last commit uses */
  constructor(fd: number, pageSize: number, usedBytes: () => number) {
    this.#fd = fd
    this.#pageSize = pageSize
    this.#usedBytes = usedBytes
  }

  /** Bytes promised to writes under way: the room a write needs alongside its own. */
  get promisedBytes(): number {
    return this.#promised
  }

  /**
   * Promises room for a write whose values hold `valueBytes`; call the returned function once
   * the write has committed or failed. @throws StoreFullError
   */
  /** The room a write whose values hold `valueBytes` is promised. */
  bytesFor(valueBytes: number): number {
    return (Math.ceil(valueBytes / this.#pageSize) + pagesPerWrite) * this.#pageSize
  }

  claim(valueBytes: number): () => void {
    const bytes = this.bytesFor(valueBytes)
    const needed = this.#usedBytes() + this.#promised + bytes + pagesPerWrite * this.#pageSize
    const size = fstatSync(this.#fd).size
    if (needed > size) this.#grow(size, needed)
    this.#promised += bytes
    let released = false
    return () => {
      if (!released) this.#promised -= bytes
      released = true
    }
  }

  #grow(size: number, needed: number): void {
    const step = Math.min(64 * 2 ** 20, Math.max(2 ** 20, Math.ceil(size / 4)))
    let end = size
    try {
      end = this.#fill(size, needed + step)
    } catch (error) {
      if (!isNoSpace(error)) throw error
      // Not a whole step: the room for this write alone may still be there.
      try {
        end = this.#fill(fstatSync(this.#fd).size, needed)
      } catch (again) {
        if (isNoSpace(again)) throw new StoreFullError(undefined, { cause: again })
        throw again
      }
    }
    if (end < needed) throw new StoreFullError()
    fdatasyncSync(this.#fd)
  }

  /** Appends zeros from `from` up to `to`; returns where the file ends. */
  #fill(from: number, to: number): number {
    let position = from
    while (position < to) {
      position += writeSync(this.#fd, zeros, 0, Math.min(zeros.length, to - position), position)
    }
    return position
  }
}

function isNoSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOSPC' || code === 'EDQUOT'
}
