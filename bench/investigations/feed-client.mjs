// The change-feed client: a child process of the bench that opens Server-Sent Events streams with
// plain node:http (no keep-alive agent, one socket each) and notes when each event arrives on
// each stream, on the machine's monotonic clock, which the bench process shares. It parses
// nothing while events arrive; what they hold is read when the bench collects them.
// Driven over IPC:
//   { open: { url, streams } }   -> { opened: { streams, ms, startWithId } } or { failed }
//   (every stream has its k-th event)  -> { delivered: k }
//   { collect: true }            -> { arrivals: per stream, [[ms, kind, item id], ...],
//                                     closed, clientCpuMs since the streams opened }
//   { close: true }              -> { closed: true }, every stream closed
import { request } from 'node:http'
import { monotonicMs } from '../clock.mjs'

let streams = []
/** CPU used so far once the last stream opened: what handling the events cost is counted after. */
let cpuAtOpen = process.cpuUsage()
/** haveEvent[k]: how many streams have their k-th event (k from 1). */
let haveEvent = []

function openStream(url) {
  return new Promise((resolve, reject) => {
    const stream = { arrivals: [], buffer: '', first: null, closed: false, req: null }
    stream.req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      const type = String(res.headers['content-type'])
      if (res.statusCode !== 200 || !type.startsWith('text/event-stream')) {
        res.resume()
        return reject(new Error(`GET ${url} answered ${res.statusCode} ${type}`))
      }
      res.setEncoding('utf8')
      res.on('data', (text) => received(stream, text, resolve))
      res.on('close', () => {
        stream.closed = true
      })
    })
    stream.req.on('error', reject)
    stream.req.setTimeout(10_000, () => {
      if (stream.first === null) stream.req.destroy(new Error(`GET ${url}: no first block in 10 s`))
    })
    stream.req.end()
  })
}

function received(stream, text, opened) {
  const at = monotonicMs()
  stream.buffer += text
  let end = stream.buffer.indexOf('\n\n')
  while (end >= 0) {
    const block = stream.buffer.slice(0, end)
    stream.buffer = stream.buffer.slice(end + 2)
    if (stream.first === null) {
      // The stream is open once its first block (an `id:` line, maybe a `retry:`) has come.
      stream.first = block
      opened(stream)
    } else if (/^data:/m.test(block)) {
      stream.arrivals.push([at, block])
      const k = stream.arrivals.length
      haveEvent[k] = (haveEvent[k] ?? 0) + 1
      if (haveEvent[k] === streams.length) process.send({ delivered: k })
    }
    end = stream.buffer.indexOf('\n\n')
  }
}

async function open({ url, streams: count }) {
  const started = monotonicMs()
  close()
  let next = 0
  // 50 handshakes at a time, as a crowd of browsers would arrive, not all in one instant.
  const worker = async () => {
    while (next < count) {
      next++
      streams.push(await openStream(url))
    }
  }
  await Promise.all(Array.from({ length: Math.min(50, count) }, worker))
  const startWithId = streams.filter((stream) => /^id:/m.test(stream.first)).length
  cpuAtOpen = process.cpuUsage()
  return { opened: { streams: streams.length, ms: monotonicMs() - started, startWithId } }
}

/** Each arrival as [ms, kind, item id]; read after the measure, so it costs the measure nothing. */
function collect() {
  const { user, system } = process.cpuUsage(cpuAtOpen)
  const arrivals = streams.map((stream) =>
    stream.arrivals.map(([at, block]) => {
      const kind = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message'
      const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((match) => match[1]).join('\n')
      let id = null
      try {
        id = JSON.parse(data).id ?? null
      } catch {}
      return [at, kind, id]
    }),
  )
  const closed = streams.filter((stream) => stream.closed).length
  return { arrivals, closed, clientCpuMs: (user + system) / 1000 }
}

function close() {
  for (const stream of streams) stream.req.destroy()
  streams = []
  haveEvent = []
  return { closed: true }
}

process.on('message', async (message) => {
  try {
    if (message.open) process.send(await open(message.open))
    else if (message.collect) process.send(collect())
    else if (message.close) process.send(close())
  } catch (error) {
    process.send({ failed: String(error.message ?? error) })
  }
})
process.on('disconnect', () => {
  close()
  process.exit(0)
})
