import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, launchChromium } from './support/chromium.js'
import { type MicroProcess, startMicro } from './support/micro-process.js'

const movie = { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }

/** A page of another website: an empty document on a port of its own (127.0.0.1, not localhost). */
async function otherSite(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>other</title>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

/** What the page at `origin` gets from `fetch` for each request, as the page's script sees it. */
async function fromPage(browser: Browser, origin: string, items: string) {
  const page = await browser.newPage()
  try {
    await page.goto(origin)
    return await page.evaluate(
      async ({ items, movie }) => {
        const outcome = async (path: string, init?: RequestInit) => {
          try {
            const response = await fetch(items + path, init)
            return response.status
          } catch {
            return 'blocked'
          }
        }
        const json = { 'content-type': 'application/json' }
        return {
          read: await outcome('/items'),
          create: await outcome('/items', {
            method: 'POST',
            headers: json,
            body: JSON.stringify(movie),
          }),
          // A simple request (no preflight): the browser sends it, the service refuses it.
          simple: await outcome('/items', { method: 'POST', body: JSON.stringify(movie) }),
          remove: await outcome(`/items/${movie.id}`, { method: 'DELETE' }),
        }
      },
      { items, movie },
    )
  } finally {
    await page.close()
  }
}

describe.skipIf(!hasChromium)('a page on another website, in Chromium', () => {
  let browser: Browser
  let site: { server: Server; origin: string }
  let items: MicroProcess | undefined

  beforeAll(async () => {
    browser = await launchChromium()
    site = await otherSite()
  })
  afterEach(async () => {
    await items?.stop()
    items = undefined
  })
  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => site?.server.close(resolve))
  })

  const list = async () => (await (await fetch(`${items?.url}/items`)).json()) as unknown[]

  it('reads a default items-service, and can neither create nor delete', async () => {
    items = await startMicro('items-service')
    await fetch(`${items.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...movie, id: 'tt0068646' }),
    })
    const before = await list()
    expect(await fromPage(browser, site.origin, items.url)).toEqual({
      read: 200,
      create: 403,
      simple: 403,
      remove: 'blocked',
    })
    expect(await list()).toEqual(before)
  })

  it('writes once CORS_ORIGINS names its origin', async () => {
    items = await startMicro('items-service', { CORS_ORIGINS: site.origin })
    expect(await fromPage(browser, site.origin, items.url)).toEqual({
      read: 200,
      create: 201,
      simple: 415,
      remove: 200,
    })
  })
})
