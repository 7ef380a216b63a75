/** The disk has no room for a write; nothing of the write was stored. */
export class NoSpaceError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('no space left to store the write', options)
    this.name = 'NoSpaceError'
  }
}

/** The engine could not store a write (an I/O error); nothing of the write was stored. */
export class StorageWriteError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the store could not write', options)
    this.name = 'StorageWriteError'
  }
}

/** The files under DATA_DIR are not a store this engine can read as it is; nothing was changed. */
export class StoreDamagedError extends Error {
  constructor(
    readonly file: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file} is damaged (${reason}); it was left as it is`, options)
    this.name = 'StoreDamagedError'
  }
}
