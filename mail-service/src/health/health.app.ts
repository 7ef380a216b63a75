import { healthApp as kitHealthApp } from '@movies-and-mail/http-kit/app'
import { StoreFullError } from '@movies-and-mail/store-kit'

/** `GET /healthz`: 200 while every store answers; 503 when one does not, or has no space. */
export function healthApp({
  stores,
  logError,
}: {
  stores: readonly { ping(): Promise<void> }[]
  logError: (line: string) => void
}) {
  return kitHealthApp({
    stores,
    describe: (error) =>
      error instanceof StoreFullError ? 'a store has no space left' : 'a store does not answer',
    log: (line) => logError(line.trimEnd()),
  })
}
