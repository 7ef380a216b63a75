import { healthApp as kitHealthApp } from '@movies-and-mail/http-kit/app'
import { StoreFullError } from '@movies-and-mail/store-kit'
import type { ItemStore } from '../store/item-store.js'

/** `GET /healthz`: 200 while the store answers; 503 when it does not, or its disk is full. */
export function healthApp({ store }: { store: ItemStore }) {
  return kitHealthApp({
    stores: [store],
    describe: (error) => (error instanceof StoreFullError ? error.message : 'database unavailable'),
  })
}
