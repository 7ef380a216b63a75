import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import type {
  IfMatch,
  Item,
  ItemPage,
  ItemQuery,
  RefusalReason,
  Refused,
  Restored,
  TaggedJson,
  TaggedList,
  Usage,
  Written,
} from '../store/item-store.js'

/**
 * How the Worker and the collection's object speak, decided here for both sides: the Worker's
 * store (`ObjectItemStore`) asks, the object (`ItemsObject`) answers. Calls whose response is
 * small (an item, a page, the usage) are Workers RPC methods; the list and the writes, which
 * answer the whole list, are requests to the object's `fetch`, so that the list crosses as a
 * response's body: the object's `Blob`, shared and not copied, where an RPC value is
 * serialised and copied twice (bench/README.md › The app in the Worker, the store in the
 * object).
 */

/** The object's paths for the calls that answer the list. */
export const collectionPaths = {
  list: '/list',
  insert: '/insert',
  update: '/update',
  remove: '/remove',
} as const

/** The origin of those calls' URLs, which the object never looks at. */
export const collectionOrigin = 'https://collection'

/** The body of an update's call and of a delete's; `by`: the writing user, checked by the object. */
export type UpdateCall = {
  id: string
  fields: Record<string, unknown>
  ifMatch?: IfMatch
  by?: string
}
export type RemoveCall = { id: string; ifMatch?: IfMatch; by?: string }

/**
 * Why the object could not do a call: its store is full, does not answer, or could not be
 * opened with the settings given (its log says which).
 */
export type Failure = { failed: 'full' | 'unavailable'; message: string }

/** An RPC call's answer: its value, or why there is none. */
export type Answer<T> = { value: T } | Failure

/** The object's RPC methods: the calls whose response is small. */
export interface CollectionCalls {
  find(id: string): Promise<Answer<TaggedJson | null>>
  query(query: ItemQuery): Promise<Answer<ItemPage>>
  usage(): Promise<Answer<Usage>>
  ping(): Promise<Answer<null>>
  restore(items: Item[], replace: boolean): Promise<Answer<Restored>>
}

/** The collection's object as the Worker reaches it: those methods, and its `fetch`. */
export type CollectionStub = CollectionCalls & {
  fetch(input: string | Request, init?: RequestInit): Promise<Response>
}

/** What the Worker's answers say when the object or its database does not answer. */
export const unavailableMessage = 'database unavailable'

/** A store's own error as the object sends it on, with its message; another error: none. */
export function failureOf(error: unknown): Failure | undefined {
  if (error instanceof StoreFullError) return { failed: 'full', message: error.message }
  if (error instanceof StoreUnavailableError) {
    return { failed: 'unavailable', message: error.message }
  }
  return undefined
}

/** A failure as the Worker's store throws it, for the app to answer 507 or 503. */
export function errorOf({ failed, message }: Failure): Error {
  return failed === 'full' ? new StoreFullError(message) : new StoreUnavailableError(message)
}

/**
 * Bytes as an RPC value should carry them: a view of a larger buffer (an item's bytes are a
 * view of the list's) crosses with the whole buffer, so a view is copied out first (into a
 * `Uint8Array` of its own: a Buffer's `slice` is another view).
 */
export function alone(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes)
}

/** The status a failure crosses with, as a response of the object's `fetch`. */
export const failureStatus = { full: 507, unavailable: 503 } as const

/** The status a refused write crosses with; its body says why, and of which id. */
export const refusedStatus = 409

/**
 * A list-answering call's answer as the object sends it: the list and its tag, a refusal, or a
 * failure.
 */
export function writeResponse(result: Written | Refused<RefusalReason>): Response {
  if (!result.ok)
    return Response.json({ why: result.why, id: result.id }, { status: refusedStatus })
  return listResponse(result.list)
}

/** The list as the object sends it: its bytes or Blob, its tag in `etag`. */
export function listResponse({ body, etag }: TaggedList): Response {
  // A Node Buffer is a view of an ArrayBuffer; the web types allow a shared one as well.
  return new Response(body as Uint8Array<ArrayBuffer> | Blob | ReadableStream, {
    headers: { etag },
  })
}

/** A failure as the object's `fetch` answers it. */
export function failureResponse(failure: Failure): Response {
  return Response.json(failure, { status: failureStatus[failure.failed] })
}

/**
 * What the Worker's store makes of a response of the object's `fetch`: the list and its tag, or
 * the refusal; a failure is thrown as the store's error.
 */
export async function writtenOf(response: Response): Promise<Written | Refused<RefusalReason>> {
  if (response.status === refusedStatus) {
    const { why, id } = (await response.json()) as { why: RefusalReason; id: string }
    return { ok: false, why, id }
  }
  return { ok: true, list: await listOf(response) }
}

/** The list a response of the object's `fetch` carries; a failure is thrown as the store's. */
export async function listOf(response: Response): Promise<TaggedList> {
  const etag = response.headers.get('etag')
  if (response.status !== 200 || etag === null || response.body === null) {
    throw errorOf(await failureIn(response))
  }
  return { body: response.body, etag }
}

/** The failure a response that is not the list says, or `unavailable` if it says none. */
async function failureIn(response: Response): Promise<Failure> {
  try {
    const said = (await response.json()) as Partial<Failure>
    if ((said.failed === 'full' || said.failed === 'unavailable') && said.message) {
      return { failed: said.failed, message: said.message }
    }
  } catch {
    // Not the object's own response: the runtime's, for an object that could not run.
  }
  return { failed: 'unavailable', message: unavailableMessage }
}
