import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import {
  killServicesAfter,
  ServiceProcess,
  sleep,
  temporaryDataDir,
} from './support/service-process.js'

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
  killServicesAfter()

  it('lets a request in flight finish, stops accepting, then exits 0', async () => {
    const DATA_DIR = await temporaryDataDir()
    const service = await ServiceProcess.start({ DATA_DIR })
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

    const again = await ServiceProcess.start({ DATA_DIR })
    expect(await (await fetch(`${again.url}/items/tt1`)).json()).toMatchObject({ id: 'tt1' })
  })

  it('exits 0 promptly when nothing is in flight, even after keep-alive requests', async () => {
    const service = await ServiceProcess.start({ DATA_DIR: await temporaryDataDir() })
    for (let n = 0; n < 3; n++) await (await fetch(`${service.url}/items`)).text()
    const started = Date.now()
    service.kill('SIGTERM')
    expect(await service.exited).toEqual({ code: 0, signal: null })
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})
