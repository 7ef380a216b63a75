import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../test/support/test-app.js'

describe('x-apikey when an API key is set', () => {
  const api = useTestApp({ apiKey: 's3cret-items-key-1' })
  const key = { 'x-apikey': 's3cret-items-key-1' }

  it('lets mutations with the right key through', async () => {
    expect((await api().post(movies.shawshank, key)).status).toBe(201)
    expect((await api().put(movies.shawshank.id, { genre: 'X' }, key)).status).toBe(200)
    expect((await api().delete(movies.shawshank.id, key)).status).toBe(200)
  })

  it.each([
    ['without a key', {}],
    ['with a wrong key', { 'x-apikey': 's3cret-items-key-2' }],
    ['with a prefix of the key', { 'x-apikey': 's3cret-items-key' }],
    ['with the key and more', { 'x-apikey': 's3cret-items-key-12' }],
    ['with an empty key', { 'x-apikey': '' }],
  ])('answers 401 to POST, PUT and DELETE %s, changing nothing', async (_, headers) => {
    await api().post(movies.shawshank, key)
    const refused = await api().expectRefused(() => api().post(movies.godfather, headers), 401)
    expect(refused).toEqual({ error: 'Unauthorized' })
    await api().expectRefused(() => api().put(movies.shawshank.id, { name: 'X' }, headers), 401)
    await api().expectRefused(() => api().delete(movies.shawshank.id, headers), 401)
  })

  it('checks the key before looking at the body', async () => {
    await api().expectRefused(
      () => api().request('/items', { method: 'POST', body: 'not json' }),
      401,
    )
  })

  it('keeps reads public', async () => {
    await api().post(movies.shawshank, key)
    expect((await api().request('/items')).status).toBe(200)
    expect((await api().get(movies.shawshank.id)).status).toBe(200)
    expect((await api().request('/healthz')).status).toBe(200)
  })
})

describe('x-apikey when no API key is set', () => {
  const api = useTestApp()

  it('lets mutations through without one', async () => {
    expect((await api().post(movies.shawshank)).status).toBe(201)
  })

  it('documents no scheme to authorize with, and no operation that needs one', async () => {
    const document = (await (await api().request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { security?: object[] }>>
      components: { securitySchemes?: object; schemas?: object }
    }
    expect(document.components.securitySchemes).toBeUndefined()
    expect(document.components.schemas).toBeDefined()
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item))
    expect(operations.flatMap(({ security = [] }) => security)).toEqual([])
  })
})
