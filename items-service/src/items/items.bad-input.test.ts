import { malformedText } from '@movies-and-mail/http-kit/routes'
import { describe, expect, it } from 'vitest'
import {
  refusedOnCreate,
  refusedOnUpdate,
  withField,
} from '../../test/support/refused-item-bodies.js'
import { movies, useTestApp } from '../../test/support/test-app.js'
import { maxNestingDepth } from './item.schema.js'

const nested = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`
const asSent = (body: string | Uint8Array<ArrayBuffer>) => ({
  headers: { 'content-type': 'application/json' },
  body,
})

describe('POST /items with bad input', () => {
  const api = useTestApp()

  it.each(refusedOnCreate)('refuses $what with 400', async ({ body, fields }) => {
    await api().seed(movies.shawshank)
    const answer = await api().expectRefused(
      () => api().request('/items', { method: 'POST', ...asSent(body) }),
      400,
    )
    if (fields) {
      expect(answer).toEqual({
        error: 'invalid request body',
        issues: fields.map((path) => ({ path, message: expect.any(String) })),
      })
    }
  })

  it('names what is wrong with a lone surrogate', async () => {
    const answer = await api().expectRefused(
      () => api().request('/items', { method: 'POST', ...asSent(withField('"id":"lone\\ud800"')) }),
      400,
    )
    expect(answer).toEqual({
      error: 'invalid request body',
      issues: [{ path: 'id', message: malformedText.value }],
    })
  })

  it('accepts the longest id, name and genre allowed, and characters beyond the BMP', async () => {
    const longest = { id: 'i'.repeat(200), name: 'n'.repeat(500), genre: 'g'.repeat(100) }
    expect((await api().post(longest)).status).toBe(201)
    const astral = { id: '🎬\ud83c\udfac', name: '𝔄𝔪𝔢𝔩𝔦𝔢', genre: 'Comedy', note: '🍿' }
    expect((await api().post(astral)).status).toBe(201)
  })

  it('refuses values nested too deep, naming the nesting, promptly however deep', async () => {
    for (const depth of [maxNestingDepth, 40, 30_000]) {
      const answer = await api().expectRefused(
        () =>
          api().request('/items', {
            method: 'POST',
            ...asSent(withField(`"deep":${nested(depth)}`)),
          }),
        400,
      )
      expect(answer).toMatchObject({ issues: [{ message: expect.stringMatching(/nest/) }] })
    }
  })

  it('accepts values nested as deep as allowed', async () => {
    const response = await api().request('/items', {
      method: 'POST',
      ...asSent(withField(`"deep":${nested(maxNestingDepth - 2)}`)),
    })
    expect(response.status).toBe(201)
  })
})

describe('PUT /items/:id with bad input', () => {
  const api = useTestApp()

  it.each(refusedOnUpdate)('refuses $what with 400', async ({ body, fields }) => {
    await api().seed(movies.shawshank, movies.godfather)
    const answer = await api().expectRefused(
      () => api().request(`/items/${movies.shawshank.id}`, { method: 'PUT', ...asSent(body) }),
      400,
    )
    if (fields) {
      expect(answer).toEqual({
        error: 'invalid request body',
        issues: fields.map((path) => ({ path, message: expect.any(String) })),
      })
    }
  })
})

describe('an id in the path that no item can have', () => {
  const api = useTestApp()

  it.each([
    ['GET', 'x'.repeat(201)],
    ['DELETE', 'x'.repeat(201)],
    ['GET', 'tt\u0001'],
  ])('answers %s with 400', async (method, id) => {
    await api().seed(movies.shawshank)
    await api().expectRefused(
      () => api().request(`/items/${encodeURIComponent(id)}`, { method }),
      400,
    )
  })
})
