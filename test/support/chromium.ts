// Chromium for the browser tests: Debian's build at /usr/bin/chromium (or CHROME_PATH), launched
// headless with the flags a machine without a display and without network needs.
import { existsSync } from 'node:fs'
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Page } from 'playwright-core'

export const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium'
export const hasChromium = existsSync(chromePath)
if (!hasChromium) {
  console.log(
    `browser test skipped: no Chromium at ${chromePath} (install Debian's chromium or set CHROME_PATH)`,
  )
}

/** Where screenshots of failures go. */
export const artifacts = new URL('../../test-artifacts/', import.meta.url)

export const launchChromium = () =>
  chromium.launch({
    executablePath: chromePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  })

export /** What has the focus, as "tag name" (the accessible label, or name= / id=). */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement
    if (!element) return 'nothing'
    const tag = element.tagName.toLowerCase()
    const label = element.getAttribute('aria-label') ?? element.textContent?.trim()
    if (tag === 'input') return `input name=${element.getAttribute('name')}`
    if (element.id) return `${tag} id=${element.id}`
    return `${tag} ${label}`
  })
}

export /** A Deta-style front on a free port: `/mail/…` goes to `target` with the prefix taken off. */
async function prefixFront(target: string): Promise<Server> {
  const front = createServer((request, response) => {
    const path = request.url?.startsWith('/mail/') ? request.url.slice('/mail'.length) : null
    if (!path) return response.writeHead(404).end()
    const { hostname, port } = new URL(target)
    const { method, headers } = request
    const upstream = httpRequest({ hostname, port, path, method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  return front
}

/** A front that passes every request to a service and can cut the event streams it carries. */
export type CuttingFront = {
  url: string
  /** How many event streams are open through it. */
  openStreams: () => number
  /** Cuts every open event stream, as a dropped connection would. */
  cutStreams: () => void
  close: () => Promise<void>
}

export /** A front on a free port for `target`, whose event streams a test can cut. */
async function cuttingFront(target: string): Promise<CuttingFront> {
  const streams = new Set<ServerResponse>()
  const front = createServer((request, response) => {
    const { hostname, port } = new URL(target)
    const { method, headers, url: path } = request
    const upstream = httpRequest({ hostname, port, path, method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      if (answer.headers['content-type']?.startsWith('text/event-stream')) {
        streams.add(response)
        response.on('close', () => {
          streams.delete(response)
          answer.destroy()
        })
      }
      answer.pipe(response)
    })
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const { port } = front.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    openStreams: () => streams.size,
    cutStreams: () => {
      for (const stream of streams) stream.destroy()
    },
    close: () =>
      new Promise((resolve) => {
        front.closeAllConnections()
        front.close(() => resolve())
      }),
  }
}
