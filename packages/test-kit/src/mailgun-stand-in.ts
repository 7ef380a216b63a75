import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach } from 'vitest'

export type MailgunRequest = {
  method: string
  path: string
  authorization?: string
  contentType?: string
  /** Every multipart field, in order, as the server parsed them. */
  fields: [string, string][]
}

export type MailgunReply =
  | { status: number; statusText?: string; body: string; contentType?: string; delayMs?: number }
  /** The status and headers (a `Content-Length` of `body`), the first half of `body`, then the connection cut. */
  | { status: number; body: string; cutAfterHeaders: true }
  /** Never answers. */
  | 'hang'
  /**
   * Reads the whole request, then resets the connection (a TCP RST) before any response: the
   * request may have been taken, and the sender cannot know (ECONNRESET).
   */
  | 'reset'
  /** Reads the whole request, then closes the connection without a response ("socket hang up"). */
  | 'close'

/** Mailgun's answer to a message it queued. */
const accepted = {
  status: 200,
  body: '{"id":"<20260101120000.5f3c9a1b2d4e6f70@mg.example.com>","message":"Queued. Thank you."}',
}

/**
 * A stand-in for Mailgun's messages API: a real HTTP server on loopback that parses each
 * multipart body and records what it received, then answers with `reply`.
 */
export class MailgunStandIn {
  readonly requests: MailgunRequest[] = []
  reply: MailgunReply = { ...accepted }
  /**
   * The webhooks registered through `/v3/domains/<domain>/webhooks` (Mailgun's webhooks API),
   * as `<domain> <event id>` to the URLs: a POST of an id already there is refused with 400, as
   * Mailgun does; a PUT to `/webhooks/<id>` changes it.
   */
  readonly webhooks = new Map<string, string[]>()
  readonly #server: Server

  private constructor(server: Server) {
    this.#server = server
  }

  static async start(): Promise<MailgunStandIn> {
    const standIn = MailgunStandIn.#create()
    await new Promise<void>((resolve) => standIn.#server.listen(0, '127.0.0.1', resolve))
    return standIn
  }

  /**
   * For the enclosing test file: one stand-in, listening before its tests and stopped after;
   * before each test its record is emptied and it answers `reply` again.
   */
  static forEachTest(reply: () => MailgunReply = () => ({ ...accepted })): MailgunStandIn {
    const standIn = MailgunStandIn.#create()
    beforeAll(() => new Promise<void>((resolve) => standIn.#server.listen(0, '127.0.0.1', resolve)))
    afterAll(() => standIn.stop())
    beforeEach(() => {
      standIn.requests.length = 0
      standIn.webhooks.clear()
      standIn.reply = reply()
    })
    return standIn
  }

  static #create(): MailgunStandIn {
    const server = createServer()
    const standIn = new MailgunStandIn(server)
    server.on('request', async (req, res) => {
      const chunks: Buffer[] = []
      try {
        for await (const chunk of req) chunks.push(chunk as Buffer)
      } catch {
        // The sender went away mid-body (a killed process): Mailgun never got a whole request.
        return
      }
      const contentType = req.headers['content-type']
      const form = await new Response(Buffer.concat(chunks), {
        headers: { 'content-type': contentType ?? 'text/plain' },
      })
        .formData()
        .catch(() => new FormData())
      standIn.requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        contentType,
        fields: [...form.entries()].map(([name, value]) => [name, String(value)]),
      })
      const hook = standIn.#webhookAnswer(req.method ?? '', req.url ?? '', form)
      if (hook) {
        res.writeHead(hook.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(hook.body))
        return
      }
      const reply = standIn.reply
      if (reply === 'hang') return
      if (reply === 'reset') return void req.socket.resetAndDestroy()
      if (reply === 'close') return void req.socket.destroy()
      if ('cutAfterHeaders' in reply) {
        res.writeHead(reply.status, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(reply.body)),
        })
        res.write(reply.body.slice(0, reply.body.length >> 1))
        setTimeout(() => res.socket?.destroy(), 20)
        return
      }
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs))
      res.writeHead(reply.status, reply.statusText ?? '', {
        'content-type': reply.contentType ?? 'application/json',
      })
      res.end(reply.body)
    })
    return standIn
  }

  /** Mailgun's answer to a webhook registration, or undefined for any other request. */
  #webhookAnswer(method: string, path: string, form: FormData) {
    const match = /^\/v3\/domains\/([^/]+)\/webhooks(?:\/([^/?]+))?$/.exec(path)
    if (!match) return undefined
    const [, domain, pathId] = match
    const id = pathId ?? String(form.get('id') ?? '')
    const urls = form.getAll('url').map(String)
    const key = `${domain} ${id}`
    if (method === 'POST' && !pathId) {
      if (this.webhooks.has(key))
        return { status: 400, body: { message: 'Webhook already exists' } }
      this.webhooks.set(key, urls)
      return { status: 200, body: { message: 'Webhook has been created', webhook: { urls } } }
    }
    if (method === 'PUT' && pathId) {
      this.webhooks.set(key, urls)
      return { status: 200, body: { message: 'Webhook has been updated', webhook: { urls } } }
    }
    return { status: 405, body: { message: 'Method not allowed' } }
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections()
    await new Promise((resolve) => this.#server.close(resolve))
  }
}

/** A base URL on which nothing listens: a port that was free a moment ago. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}
