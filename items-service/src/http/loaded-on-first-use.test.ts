import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { describe, expect, it, vi } from 'vitest'
import { loadedOnFirstUse } from './loaded-on-first-use.js'

const request = (url: string) => ({ url }) as IncomingMessage
const response = {} as ServerResponse

describe('loadedOnFirstUse', () => {
  it('loads once, on the first request, and hands every request over in order', async () => {
    const handled: string[] = []
    let finishLoading: (listener: RequestListener) => void = () => {}
    const load = vi.fn(() => new Promise<RequestListener>((resolve) => (finishLoading = resolve)))
    const listener = loadedOnFirstUse(load, () => {})
    expect(load).not.toHaveBeenCalled()

    listener(request('/first'), response)
    listener(request('/second'), response)
    expect(handled).toEqual([])
    finishLoading((incoming) => handled.push(incoming.url ?? ''))
    await vi.waitFor(() => expect(handled).toEqual(['/first', '/second']))

    listener(request('/third'), response)
    expect(handled).toEqual(['/first', '/second', '/third'])
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('reports a failed load once per waiting request and never hands it over', async () => {
    const failures: unknown[] = []
    const listener = loadedOnFirstUse(
      () => Promise.reject(new Error('no chunk')),
      (error) => failures.push(error),
    )
    listener(request('/'), response)
    await vi.waitFor(() => expect(failures).toHaveLength(1))
    expect(String(failures[0])).toContain('no chunk')
  })
})
