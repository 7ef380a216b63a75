import { request } from 'node:http'
import { killBuiltEntries, stopDuringTrickle } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { sleep, startService, temporaryDataDir } from './support/built-service.js'

/** Whether a fresh TCP connection can reach `url`. */
function connects(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = request(`${url}/healthz`, { agent: false }, (response) => {
      response.resume()
      resolve(true)
    })
    probe.on('error', () => resolve(false))
    probe.end()
  })
}

describe('SIGTERM', () => {
  afterEach(killBuiltEntries)

  it('lets a request in flight finish, stops accepting, then exits 0', async () => {
    const DATA_DIR = await temporaryDataDir()
    const service = await startService({ DATA_DIR })
    const body = new TextEncoder().encode('{"id":"tt1","name":"Slow upload","genre":"Drama"}')
    let finishBody = () => {}
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body.slice(0, 10))
        finishBody = () => {
          controller.enqueue(body.slice(10))
          controller.close()
        }
      },
    })
    const answer = fetch(`${service.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    await sleep(300) // the server has the request's head and is waiting for the rest

    service.kill('SIGTERM')
    await sleep(300)
    expect(service.alive).toBe(true)
    expect(await connects(service.url)).toBe(false)

    finishBody()
    const response = await answer
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual([expect.objectContaining({ id: 'tt1' })])
    const answered = Date.now()
    expect(await service.exited).toEqual({ code: 0, signal: null })
    // Not held open until the keep-alive timeout by the connection that just went idle.
    expect(Date.now() - answered).toBeLessThan(2_000)
    expect(service.stdout).toContain('SIGTERM')

    const again = await startService({ DATA_DIR })
    expect(await (await fetch(`${again.url}/items/tt1`)).json()).toMatchObject({ id: 'tt1' })
  })

  it('exits 0 promptly when nothing is in flight, even after keep-alive requests', async () => {
    const service = await startService({ DATA_DIR: await temporaryDataDir() })
    for (let n = 0; n < 3; n++) await (await fetch(`${service.url}/items`)).text()
    const started = Date.now()
    service.kill('SIGTERM')
    expect(await service.exited).toEqual({ code: 0, signal: null })
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('cuts a body that never ends at SHUTDOWN_TIMEOUT_MS, exits 0 and keeps what was acknowledged', async () => {
    const DATA_DIR = await temporaryDataDir()
    const service = await startService({ DATA_DIR, SHUTDOWN_TIMEOUT_MS: '1000' })
    const stored = await fetch(`${service.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'tt1', name: 'Acknowledged', genre: 'Drama' }),
    })
    expect(stored.status).toBe(201)
    const stop = await stopDuringTrickle(service, `${service.url}/items`)
    expect(stop).toMatchObject({ exit: { code: 0, signal: null }, cut: true })
    // The deadline, plus the store's close and Node's exit on a slow machine.
    expect(stop.tookMs).toBeGreaterThanOrEqual(900)
    expect(stop.tookMs).toBeLessThan(1_000 + 1_500)
    expect(service.stdout).toContain('closed 1 connection(s) still in flight after 1000 ms')

    const again = await startService({ DATA_DIR })
    expect(await (await fetch(`${again.url}/items`)).json()).toEqual([
      expect.objectContaining({ id: 'tt1', name: 'Acknowledged' }),
    ])
  })
})
