import type { Document } from 'bson'
import { MingoError } from 'mingo/util'

/** The codes the stand-in answers, by MongoDB's names for them. */
export const codes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  NamespaceExists: 48,
  InvalidIdField: 53,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  InvalidResumeToken: 260,
  ChangeStreamFatalError: 280,
  ChangeStreamHistoryLost: 286,
  DuplicateKey: 11000,
  Location40573: 40573,
} as const

export type CodeName = keyof typeof codes

/** A command refused as MongoDB refuses it: its code, code name, message and extra fields. */
export class CommandError extends Error {
  readonly codeName: CodeName
  readonly extra: Document

  constructor(codeName: CodeName, message: string, extra: Document = {}) {
    super(message)
    this.codeName = codeName
    this.extra = extra
  }

  get code(): number {
    return codes[this.codeName]
  }

  /** The error as a write error of a batch (`writeErrors`), at the statement `index`. */
  writeError(index: number): Document {
    return { index, code: this.code, errmsg: this.message, ...this.extra }
  }

  /** The error as a command's whole answer. */
  reply(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra }
  }
}

/**
 * The CommandError an error thrown while running a command stands for: itself, mingo's refusal
 * of a query or an update (BadValue, as MongoDB answers most such; its own code where MongoDB's
 * is known), or an InternalError for anything else, so that the client sees it rather than a
 * dropped connection.
 */
export function asCommandError(error: unknown): CommandError {
  if (error instanceof CommandError) return error
  const message = error instanceof Error ? error.message : String(error)
  if (!(error instanceof MingoError)) return new CommandError('InternalError', message)
  if (message.includes("immutable field '_id'")) return new CommandError('ImmutableField', message)
  if (message.startsWith('Unknown update operator')) {
    return new CommandError('FailedToParse', message)
  }
  return new CommandError('BadValue', message)
}
