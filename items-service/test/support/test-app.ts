import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Compression } from '@movies-and-mail/http-kit/node'
import { checkedAgainst, OpenApiContract } from '@movies-and-mail/test-kit'
import { afterEach, beforeEach, expect } from 'vitest'
import { type AppOptions, createApp } from '../../src/app.js'
import { EmbeddedItemStore } from '../../src/store/embedded/embedded-item-store.js'
import type { Item } from '../../src/store/item-store.js'
import { failingStore } from './failing-store.js'

export type TestAppOptions = Omit<AppOptions, 'store' | 'log'>

const json = { 'content-type': 'application/json' }
const path = (id: string) => `/items/${encodeURIComponent(id)}`

let contract: Promise<OpenApiContract> | undefined
/** The document the app serves, read once from an app of its own (no store, no log lines). */
const servedContract = () => {
  contract ??= OpenApiContract.of(
    createApp({ store: failingStore(() => new Error('unused')), log: () => {} }),
  )
  return contract
}

/**
 * The real app over a real embedded store in a fresh temporary directory, with the log lines
 * collected, and short-hands for the requests the route tests make. Every response of
 * `app.request` is checked against the app's OpenAPI document: a drift fails the test.
 */
export class TestApp {
  readonly lines: string[] = []
  /** The list's compression, as the Node entry gives the app one. */
  readonly compression = new Compression()
  readonly app: ReturnType<typeof createApp>
  readonly #dir: string
  readonly #store: EmbeddedItemStore

  private constructor(dir: string, store: EmbeddedItemStore, options: TestAppOptions) {
    this.#dir = dir
    this.#store = store
    const app = createApp({
      compress: (list, acceptEncoding) => this.compression.of(list, acceptEncoding),
      ...options,
      store,
      log: (line) => this.lines.push(line),
    })
    this.app = checkedAgainst(servedContract, app)
  }

  static async open(options: TestAppOptions = {}): Promise<TestApp> {
    const dir = await mkdtemp(join(tmpdir(), 'items-routes-'))
    return new TestApp(dir, await EmbeddedItemStore.open(dir), options)
  }

  async close(): Promise<void> {
    await this.#store.close()
    await rm(this.#dir, { recursive: true, force: true })
  }

  request(url: string, init?: RequestInit): Promise<Response> {
    return Promise.resolve(this.app.request(url, init))
  }

  post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.request('/items', {
      method: 'POST',
      headers: { ...json, ...headers },
      body: JSON.stringify(body),
    })
  }

  put(id: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path(id), {
      method: 'PUT',
      headers: { ...json, ...headers },
      body: JSON.stringify(body),
    })
  }

  get(id: string): Promise<Response> {
    return this.request(path(id))
  }

  delete(id: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path(id), { method: 'DELETE', headers })
  }

  async list(): Promise<Item[]> {
    const response = await this.request('/items')
    expect(response.status).toBe(200)
    return response.json()
  }

  /** Creates the items through the API, failing the test when one is refused. */
  async seed(...items: Record<string, unknown>[]): Promise<Item[]> {
    for (const item of items) {
      const response = await this.post(item)
      expect(response.status, await response.clone().text()).toBe(201)
    }
    return this.list()
  }

  /** Sends a request that must be refused, and checks the collection is exactly as before. */
  async expectRefused(send: () => Promise<Response>, status: number): Promise<{ error: string }> {
    const before = await this.list()
    const response = await send()
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const body = await response.json()
    expect(body).toEqual(expect.objectContaining({ error: expect.any(String) }))
    expect(await this.list()).toEqual(before)
    return body
  }
}

/**
 * A fresh TestApp for each test of the enclosing suite, closed after it; options made anew for
 * each when given as a function (a verifier of tokens whose keys the test makes).
 */
export function useTestApp(options: TestAppOptions | (() => TestAppOptions) = {}): () => TestApp {
  let current: TestApp | undefined
  beforeEach(async () => {
    current = await TestApp.open(typeof options === 'function' ? options() : options)
  })
  afterEach(async () => {
    await current?.close()
    current = undefined
  })
  return () => {
    if (!current) throw new Error('useTestApp() is only available inside a test')
    return current
  }
}

export const movies = {
  shawshank: { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' },
  godfather: { id: 'tt0068646', name: 'The Godfather', genre: 'Crime' },
  darkKnight: { id: 'tt0468569', name: 'The Dark Knight', genre: 'Action' },
} as const
