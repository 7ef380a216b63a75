import { DetaBaseStandIn } from '@movies-and-mail/test-kit'

/** One request the Worker sent out, as the outbound fetch received it. */
export type Outbound = {
  url: string
  method: string
  headers: Record<string, string>
  /** Mailgun's multipart fields, in order. */
  fields?: [string, string][]
}

/**
 * The Worker's outbound fetch in a test: Mailgun on `mailgunHost`, the Deta Base stand-in
 * (`deta`, which records what reached each base) on `detaHost`, and a record of every request,
 * in order, for asserting what went out.
 * @example new Miniflare({ ...options, outboundService: outbound.fetch })
 */
export class WorkerOutbound {
  readonly requests: Outbound[] = []
  readonly deta = new DetaBaseStandIn()
  /** How Mailgun answers; a test may delay it or make it fail. */
  mailgunResponse: () => Promise<Response>

  constructor(
    readonly mailgunHost: string,
    readonly detaHost: string,
    readonly accepted: () => Promise<Response>,
  ) {
    this.mailgunResponse = accepted
  }

  /** Forgets every request and item, and has Mailgun accept at once again. */
  reset(): void {
    this.requests.length = 0
    this.deta.clear()
    this.mailgunResponse = this.accepted
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const { host } = new URL(request.url)
    const sent = {
      url: request.url,
      method: request.method,
      headers: Object.fromEntries(request.headers),
    }
    if (host === this.mailgunHost) {
      const form = await request.formData()
      const fields = [...form].map(([name, value]) => [name, String(value)] as [string, string])
      this.requests.push({ ...sent, fields })
      return this.mailgunResponse()
    }
    this.requests.push(sent)
    if (host === this.detaHost) return this.deta.fetch(request)
    return Response.json({ errors: [`no stand-in for ${host}`] }, { status: 502 })
  }

  /** The requests that reached Mailgun. */
  toMailgun(): Outbound[] {
    return this.requests.filter((request) => new URL(request.url).host === this.mailgunHost)
  }
}
