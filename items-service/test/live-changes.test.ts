import { connect } from 'node:net'
import { killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'
import { EventReader } from './support/event-reader.js'

const json = { 'content-type': 'application/json' }
const movie = { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }

/** Follows the built service's feed over HTTP. */
async function follow(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/items/events`, { headers })
  expect(response.status).toBe(200)
  return new EventReader(response.body)
}

/** Opens a stream on a raw socket that never reads what comes: a client that stalls. */
function stalledFollower(url: string): Promise<() => void> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(`GET /items/events HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`)
      socket.pause()
      resolve(() => socket.destroy())
    })
    socket.on('error', reject)
  })
}

describe('the change feed of the built service', () => {
  afterEach(killBuiltEntries)

  it('streams a create, an update and a delete, and replays them after Last-Event-ID', async () => {
    const service = await startService({ DATA_DIR: await temporaryDataDir() })
    const events = await follow(service.url)
    const { id: start } = await events.block()
    await fetch(`${service.url}/items`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(movie),
    })
    const path = `${service.url}/items/${movie.id}`
    await fetch(path, { method: 'PUT', headers: json, body: '{"genre":"Crime"}' })
    await fetch(path, { method: 'DELETE' })
    const seen = [await events.event(), await events.event(), await events.event()]
    expect(seen.map((event) => event.event)).toEqual(['created', 'updated', 'deleted'])
    await events.cancel()

    const replay = await follow(service.url, { 'last-event-id': start as string })
    const replayed = [await replay.event(), await replay.event(), await replay.event()]
    expect(replayed.map(({ event, id, data }) => ({ event, id, data }))).toEqual(
      seen.map(({ event, id, data }) => ({ event, id, data })),
    )
    await replay.cancel()
  })

  it('frees the place of a client that goes away', async () => {
    const service = await startService({
      DATA_DIR: await temporaryDataDir(),
      EVENTS_MAX_STREAMS: '1',
    })
    const first = await follow(service.url)
    expect((await fetch(`${service.url}/items/events`)).status).toBe(503)
    await first.cancel()
    // The server learns of the closed connection asynchronously.
    let status = 503
    for (let tries = 0; tries < 50 && status === 503; tries += 1) {
      const again = await fetch(`${service.url}/items/events`)
      status = again.status
      await again.body?.cancel()
      if (status === 503) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(status).toBe(200)
  })

  it('drops a client that stops reading, without holding its events in memory', async () => {
    const service = await startService({
      DATA_DIR: await temporaryDataDir(),
      EVENTS_MAX_STREAMS: '1',
    })
    const close = await stalledFollower(service.url)
    try {
      await fetch(`${service.url}/items`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(movie),
      })
      // 60 KiB a change: the socket's buffers fill, then the stream's 1 MiB allowance.
      const path = `${service.url}/items/${movie.id}`
      let status = 503
      for (let n = 0; n < 400 && status === 503; n += 1) {
        const plot = `${n} ${'x'.repeat(60 * 1024)}`
        await fetch(path, { method: 'PUT', headers: json, body: JSON.stringify({ plot }) })
        const probe = await fetch(`${service.url}/items/events`)
        status = probe.status
        await probe.body?.cancel()
      }
      // Its place was freed: the stalled stream was ended by the server.
      expect(status).toBe(200)
    } finally {
      close()
    }
  })

  it('ends open streams at SIGTERM and stops at once, cutting nothing', async () => {
    const DATA_DIR = await temporaryDataDir()
    const service = await startService({ DATA_DIR, SHUTDOWN_TIMEOUT_MS: '20000' })
    const events = await follow(service.url)
    const { id } = await events.block()
    const stopping = Date.now()
    service.kill('SIGTERM')
    expect(await events.ended()).toBe('ended')
    expect(await service.exited).toEqual({ code: 0, signal: null })
    expect(Date.now() - stopping).toBeLessThan(5_000)
    expect(service.stdout).not.toContain('still in flight')

    // The restarted service cannot know what happened in between: the reconnect reads anew.
    const restarted = await startService({ DATA_DIR })
    const again = await follow(restarted.url, { 'last-event-id': id as string })
    expect((await again.event()).event).toBe('reload')
    await again.cancel()
  })
})
