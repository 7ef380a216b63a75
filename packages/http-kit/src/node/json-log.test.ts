import { describe, expect, it } from 'vitest'
import { createPlainServiceApp } from '../plain-service-app.js'
import { jsonLog } from './json-log.js'

/** An app logging as LOG_FORMAT=json does, and the lines it wrote, each parsed. */
function jsonLoggedApp() {
  const lines: string[] = []
  const log = jsonLog((line) => lines.push(line))
  const app = createPlainServiceApp({
    log: null,
    onResponse: log.request,
    onError: log.error,
    corsOrigins: [],
    apiKeys: [],
  })
  app.get('/items/:id', (c) => c.json({ id: c.req.param('id') }))
  app.get('/fail', () => {
    throw new Error('lost mongodb://u:pw-NEVER@db.example/x')
  })
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>)
  return { app, log, lines, parsed }
}

describe('jsonLog', () => {
  it('writes one object a line per request: time, level, id, method, path, route, status, ms', async () => {
    const { app, lines, parsed } = jsonLoggedApp()
    const response = await app.request('/items/tt1')
    expect(lines).toHaveLength(1)
    expect(lines[0]?.endsWith('}\n')).toBe(true)
    const [entry] = parsed()
    expect(entry).toEqual({
      time: expect.any(String),
      level: 'info',
      requestId: response.headers.get('x-request-id'),
      method: 'GET',
      path: '/items/tt1',
      route: '/items/:id',
      status: 200,
      durationMs: expect.any(Number),
    })
    expect(new Date(entry?.time as string).toISOString()).toBe(entry?.time)
  })

  it('keeps a path of line breaks inside its object, and leaves out the route none matched', async () => {
    const { app, lines, parsed } = jsonLoggedApp()
    await app.request('/x%0A{"level":"info","forged":true}')
    expect(lines.join('').split('\n')).toHaveLength(2)
    expect(parsed()[0]).toMatchObject({ path: '/x\n{"level":"info","forged":true}', status: 404 })
    expect(parsed()[0]).not.toHaveProperty('route')
  })

  it('writes an unexpected error as an object of level error, its secrets redacted', async () => {
    const { app, lines, parsed } = jsonLoggedApp()
    const response = await app.request('/fail')
    expect(response.status).toBe(500)
    const [error, request] = parsed()
    expect(error).toMatchObject({
      level: 'error',
      requestId: response.headers.get('x-request-id'),
      method: 'GET',
      path: '/fail',
      error: expect.stringContaining('Error: lost mongodb://u:***@db.example/x'),
    })
    expect(request).toMatchObject({ level: 'info', status: 500 })
    expect(lines.join('')).not.toContain('pw-NEVER')
  })

  it("writes the service's own lines as objects with their message", () => {
    const { log, parsed } = jsonLoggedApp()
    log.line('items-service listening on http://127.0.0.1:4000\ndocs: http://127.0.0.1:4000/docs')
    expect(parsed()).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        msg: 'items-service listening on http://127.0.0.1:4000\ndocs: http://127.0.0.1:4000/docs',
      },
    ])
  })
})
