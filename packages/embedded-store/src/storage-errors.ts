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
