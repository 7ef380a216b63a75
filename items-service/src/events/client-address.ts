import type { Context } from 'hono'

/** What the node adapter hands an app as its `env`: the request as node:http received it. */
type NodeEnv = { incoming?: { socket?: { remoteAddress?: string } } }

/**
 * Who a request comes from, for limits per client: the peer's address on Node; on Workers the
 * address the platform puts in `cf-connecting-ip` (a client cannot set it at Cloudflare's
 * edge). Behind a proxy every request comes from the proxy: `trustedHeader` then names the
 * header the proxy sets (`x-forwarded-for`: the last address in it, the one the proxy added;
 * `x-real-ip`, `fly-client-ip`: the address). A header no proxy of ours sets could be forged by
 * anyone, so none is read unless named.
 */
export function clientAddress(c: Context, trustedHeader: string | undefined): string {
  if (trustedHeader) {
    const forwarded = c.req.header(trustedHeader)?.split(',').at(-1)?.trim()
    if (forwarded) return forwarded
  }
  const peer = (c.env as NodeEnv | undefined)?.incoming?.socket?.remoteAddress
  return peer ?? c.req.header('cf-connecting-ip') ?? 'unknown'
}
