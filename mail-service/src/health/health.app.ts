import { healthApp as kitHealthApp } from '@movies-and-mail/http-kit'
import { isNoSpace } from '../mail-log/mail-log.js'

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
      isNoSpace(error) ? 'a store has no space left' : 'a store does not answer',
    log: (line) => logError(line.trimEnd()),
  })
}
