// The movies of a documents file as the floors of the small reads keep them: each item's JSON
// bytes and a strong tag, by public id, and the list's bytes and tag, made once at start.
import { readFileSync } from 'node:fs'

/** Each item's `{ bytes, etag }` by id, and the list's `{ bytes, etag }`. */
export function cachedItems(documentsFile) {
  const boot = Date.now().toString(16)
  const documents = JSON.parse(readFileSync(documentsFile, 'utf8'))
  const items = new Map()
  for (const [index, document] of documents.entries()) {
    items.set(document.id, {
      bytes: Buffer.from(JSON.stringify(document)),
      etag: `"${document._id}-${boot}-${index}"`,
    })
  }
  const list = { bytes: Buffer.from(JSON.stringify(documents)), etag: `"${boot}-list"` }
  return { items, list }
}

/** The CORS headers every answer of items-service carries, as its defaults make them. */
export const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'etag, idempotent-replayed, link, location, mail-events, retry-after, x-request-id',
}

/** Says the port on stdout once listening, and stops on SIGTERM or SIGINT. */
export function announce(server) {
  server.on('listening', () => process.stdout.write(`listening on ${server.address().port}\n`))
  const stop = () => server.close(() => process.exit(0)) && server.closeAllConnections()
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}
