import { describe, expect, it } from 'vitest'
import { failingStore } from '../test/support/failing-store.js'
import { createApp } from './app.js'

describe('the log of an unexpected error', () => {
  it('keeps the error but not the password of a URL it quotes', async () => {
    const lines: string[] = []
    const store = failingStore(
      () => new Error('lost mongodb://reader:pw-NEVER-PRINT@db.example:27017/films mid-query'),
    )
    const app = createApp({ store, log: (line) => lines.push(line) })
    const response = await app.request('/items')
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ error: 'internal error' })
    const logged = lines.join('')
    expect(logged).toContain('lost mongodb://reader:***@db.example:27017/films mid-query')
    expect(logged).not.toContain('NEVER-PRINT')
  })
  it('goes to logError when one is given, and the request lines to log', async () => {
    const lines: string[] = []
    const errors: string[] = []
    const store = failingStore(() => new Error('the disk went away'))
    const app = createApp({
      store,
      log: (line) => lines.push(line),
      logError: (line) => errors.push(line),
    })
    expect((await app.request('/items')).status).toBe(500)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/ error GET \/items: Error: the disk went away\n/)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/ GET \/items 500 [\d.]+ms\n$/)
  })
})
