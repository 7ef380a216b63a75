import { StoreFullError, StoreUnavailableError } from '@movies-and-mail/store-kit'
import { describe, expect, it } from 'vitest'
import { listBytes } from '../store/item-store.js'
import {
  alone,
  failureOf,
  failureResponse,
  listOf,
  unavailableMessage,
  writeResponse,
  writtenOf,
} from './collection-protocol.js'

const encoder = new TextEncoder()
const list = { body: encoder.encode('[{"id":"tt1"}]'), etag: '"l1"' }

describe('a write between the object and the Worker', () => {
  it('arrives as the list and its tag', async () => {
    const written = await writtenOf(writeResponse({ ok: true, list }))
    if (!written.ok) throw new Error('refused')
    expect(written.list.etag).toBe('"l1"')
    expect(await listBytes(written.list)).toEqual(list.body)
  })

  it('arrives refused as it was refused, with the id', async () => {
    for (const why of ['not-found', 'stale', 'duplicate-id'] as const) {
      const response = writeResponse({ ok: false, why, id: 'tt 1' })
      expect(await writtenOf(response)).toEqual({ ok: false, why, id: 'tt 1' })
    }
  })
})

describe("the store's errors between the object and the Worker", () => {
  it('arrive as the same errors, with their messages', async () => {
    const full = failureOf(new StoreFullError('the collection holds 10 items'))
    const down = failureOf(new StoreUnavailableError('the store could not write'))
    if (!full || !down) throw new Error('a store error was not known')
    await expect(listOf(failureResponse(full))).rejects.toThrow(
      new StoreFullError('the collection holds 10 items'),
    )
    await expect(writtenOf(failureResponse(down))).rejects.toBeInstanceOf(StoreUnavailableError)
    await expect(writtenOf(failureResponse(down))).rejects.toThrow('the store could not write')
  })

  it('leave any other error to the object, which logs it', () => {
    expect(failureOf(new TypeError('x is undefined'))).toBeUndefined()
  })

  it("answer a runtime's own refusal as a database that does not answer", async () => {
    const response = new Response('Internal Server Error', { status: 500 })
    const thrown = await listOf(response).catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(StoreUnavailableError)
    expect((thrown as Error).message).toBe(unavailableMessage)
  })
})

describe('alone', () => {
  it('copies a view out of its larger buffer, a Buffer view too', () => {
    const whole = encoder.encode('[{"id":"tt1"},{"id":"tt2"}]')
    for (const view of [whole.subarray(1, 13), Buffer.from(whole.buffer).subarray(1, 13)]) {
      const own = alone(view)
      expect(own.buffer.byteLength).toBe(12)
      expect(new TextDecoder().decode(own)).toBe('{"id":"tt1"}')
    }
  })

  it('keeps bytes that are their whole buffer as they are', () => {
    const bytes = encoder.encode('{"id":"tt1"}')
    expect(alone(bytes)).toBe(bytes)
  })
})
