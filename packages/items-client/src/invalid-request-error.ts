import { ItemsApiError } from './items-api-error.js'

/**
 * What a call rejects with, before any request, when what it was given cannot go in a URL: an
 * id that is empty, `.` or `..` (URLs resolve those path segments away), or a string that is
 * not well-formed UTF-16 (a lone surrogate has no UTF-8 encoding). It is an `ItemsApiError`
 * with `status` 0, since no answer was had; its message names the value refused.
 */
export class InvalidRequestError extends ItemsApiError {
  override readonly name: string = 'InvalidRequestError'

  constructor(error: string) {
    super(0, { error })
  }
}
