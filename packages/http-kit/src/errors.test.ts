import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { errorHandler } from './errors.js'

class TakenError extends Error {}

function failingApp(error: Error) {
  const lines: string[] = []
  const app = new Hono()
  app.get('/fail', () => {
    throw error
  })
  app.get('/fail/*', () => {
    throw error
  })
  app.onError(errorHandler({ log: (line) => lines.push(line), known: [[TakenError, 409]] }))
  return { app, lines }
}

describe('errorHandler', () => {
  it('answers a known error with its status and message, logging nothing', async () => {
    const { app, lines } = failingApp(new TakenError("an item with id 'x' already exists"))
    const response = await app.request('/fail')
    expect(response.status).toBe(409)
    expect(await response.json()).toEqual({ error: "an item with id 'x' already exists" })
    expect(lines).toEqual([])
  })

  it('keeps the status of an HTTP error under 500', async () => {
    const { app } = failingApp(new HTTPException(400, { message: 'Malformed JSON' }))
    const response = await app.request('/fail')
    expect([response.status, await response.json()]).toEqual([400, { error: 'Malformed JSON' }])
  })

  it('answers anything else with a bare 500 and logs it without the password it quotes', async () => {
    const { app, lines } = failingApp(new Error('lost mongodb://u:pw-NEVER@db.example/x'))
    const response = await app.request('/fail')
    expect([response.status, await response.json()]).toEqual([500, { error: 'internal error' }])
    expect(lines.join('')).toContain('GET /fail: Error: lost mongodb://u:***@db.example/x')
    expect(lines.join('')).not.toContain('pw-NEVER')
  })

  it('writes a message or a path that holds line breaks as one entry: no line can be forged', async () => {
    const forged = '2026-01-01T00:00:00.000Z abc-1 GET /items 200 0.1ms'
    const { app, lines } = failingApp(new Error(`field 'a\n${forged}' is refused`))
    await app.request('/fail/%0A2026-01-01T00:00:00.000Z%20x%20GET')
    const [entry = ''] = lines
    const [first = '', ...rest] = entry.trimEnd().split('\n')
    expect(first).toContain('GET /fail/%0A2026-01-01T00:00:00.000Z%20x%20GET: Error: ')
    expect(first).toContain(`field 'a\\u000a${forged}' is refused`)
    // The stack's frames follow, each indented: none starts as an entry of the log does.
    expect(rest.length).toBeGreaterThan(0)
    for (const line of rest) expect(line).toMatch(/^\s+at /)
  })
})
