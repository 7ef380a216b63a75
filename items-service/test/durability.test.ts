import { type BuiltEntry, killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'

const json = { 'content-type': 'application/json' }
const movie = (n: number) => ({ id: `tt${n}`, name: `Movie ${n}`, genre: 'Drama' })

async function send(service: BuiltEntry, method: string, route: string, body?: unknown) {
  const response = await fetch(service.url + route, {
    method,
    headers: json,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(response.ok, `${method} ${route}: ${response.status}`).toBe(true)
  return response.json()
}

/** Kills the process without warning, as a crash or `kill -9` would, and waits until it is gone. */
async function crash(service: BuiltEntry): Promise<void> {
  service.kill('SIGKILL')
  expect((await service.exited).signal).toBe('SIGKILL')
}

describe('acknowledged writes survive kill -9', () => {
  afterEach(killBuiltEntries)

  it('keeps every acknowledged POST', async () => {
    const DATA_DIR = await temporaryDataDir()
    const first = await startService({ DATA_DIR })
    let acknowledged: unknown
    for (let n = 1; n <= 6; n++) acknowledged = await send(first, 'POST', '/items', movie(n))
    await crash(first)

    const second = await startService({ DATA_DIR })
    expect(await send(second, 'GET', '/items')).toEqual(acknowledged)
    expect(acknowledged).toHaveLength(6)
  })

  it('keeps acknowledged PUT and DELETE', async () => {
    const DATA_DIR = await temporaryDataDir()
    const first = await startService({ DATA_DIR })
    for (let n = 1; n <= 3; n++) await send(first, 'POST', '/items', movie(n))
    await send(first, 'PUT', '/items/tt1', { genre: 'Comedy', id: 'tt100' })
    const acknowledged = await send(first, 'DELETE', '/items/tt2')
    await crash(first)

    const second = await startService({ DATA_DIR })
    expect(await send(second, 'GET', '/items')).toEqual(acknowledged)
    expect(acknowledged).toEqual([
      expect.objectContaining({ id: 'tt100', genre: 'Comedy' }),
      expect.objectContaining({ id: 'tt3' }),
    ])
  })

  it('keeps every acknowledged POST of many sent at once, and keeps counting after', async () => {
    const DATA_DIR = await temporaryDataDir()
    const first = await startService({ DATA_DIR })
    const movies = Array.from({ length: 25 }, (_, n) => movie(n))
    await Promise.all(movies.map((item) => send(first, 'POST', '/items', item)))
    const acknowledged = await send(first, 'GET', '/items')
    await crash(first)

    const second = await startService({ DATA_DIR })
    expect(await send(second, 'GET', '/items')).toEqual(acknowledged)
    const after = await send(second, 'POST', '/items', movie(99))
    expect(after.map((item: { id: string }) => item.id).at(-1)).toBe('tt99')
    await crash(second)

    const third = await startService({ DATA_DIR })
    expect(await send(third, 'GET', '/items')).toEqual(after)
  })
})
