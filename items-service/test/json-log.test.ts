import { killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'

afterEach(killBuiltEntries)

describe('LOG_FORMAT=json', () => {
  it('writes every line of the output as one JSON object, one per request', async () => {
    const service = await startService({
      DATA_DIR: await temporaryDataDir(),
      LOG_FORMAT: 'json',
      ITEMS_APIKEY: 'json-log-test-key-1',
    })
    const ids: string[] = []
    for (const [path, init] of [
      ['/items/tt1', {}],
      ['/no/such/path', {}],
      ['/items', { method: 'POST', headers: { 'x-apikey': 'wrong-key-for-the-log' }, body: '{}' }],
    ] as const) {
      const response = await fetch(`${service.url}${path}`, init)
      await response.arrayBuffer()
      ids.push(response.headers.get('x-request-id') ?? '')
    }
    expect(await service.stop()).toEqual({ code: 0, signal: null })
    const lines = service.stdout.trimEnd().split('\n')
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(entries[0]).toMatchObject({
      level: 'info',
      msg: expect.stringMatching(/^items-service listening on http:/),
    })
    const requests = entries.filter((entry) => 'requestId' in entry)
    expect(requests.map(({ time, durationMs, ...rest }) => rest)).toEqual([
      {
        level: 'info',
        requestId: ids[0],
        method: 'GET',
        path: '/items/tt1',
        route: '/items/:id',
        status: 404,
      },
      { level: 'info', requestId: ids[1], method: 'GET', path: '/no/such/path', status: 404 },
      {
        level: 'info',
        requestId: ids[2],
        method: 'POST',
        path: '/items',
        route: '/items',
        status: 401,
      },
    ])
    for (const { time, durationMs } of requests) {
      expect(new Date(time as string).toISOString()).toBe(time)
      expect(durationMs).toBeGreaterThan(0)
    }
    expect(entries.at(-1)).toMatchObject({ level: 'info', msg: 'stopped' })
    expect(service.stdout).not.toContain('wrong-key-for-the-log')
  })
})
