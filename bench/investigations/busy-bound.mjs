// A bare node:http server over the cached movies that spins for BUSY_US microseconds before it
// answers each read: the bound made slower by work of no kind at all, so that what being slower
// costs on this machine (the kernel's share above all) can be told from what a server's own work
// costs. Run by cpu-split.mjs.
//
//   BUSY_US=8 node bench/investigations/busy-bound.mjs <documents.json>   (prints "listening on <port>")
import { createServer } from 'node:http'
import { announce, cachedItems } from '../floors/cached-items.mjs'

const busyMs = Number(process.env.BUSY_US ?? 0) / 1000
const { items } = cachedItems(process.argv[2])

const server = createServer((req, res) => {
  const until = performance.now() + busyMs
  while (performance.now() < until) {
    // Busy: no allocation, no system call.
  }
  const tagged = items.get(decodeURIComponent(req.url.slice(7)))
  if (tagged === undefined) return res.writeHead(404).end()
  res
    .writeHead(200, {
      'content-type': 'application/json',
      etag: tagged.etag,
      'content-length': tagged.bytes.length,
    })
    .end(tagged.bytes)
})
announce(server)
server.listen(0, '127.0.0.1')
