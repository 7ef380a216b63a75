import { describe, expect, it } from 'vitest'
import { movies, useTestApp } from '../../test/support/test-app.js'
import { maxNestingDepth } from './reserved-field-names.js'

const item = JSON.stringify(movies.godfather)
const withField = (field: string) => `${item.slice(0, -1)},${field}}`
const nested = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`

/** Bodies every JSON-object route refuses with 400, before looking at the fields. */
const notAnObject: [string, string][] = [
  ['invalid JSON', '{"id":"tt1",'],
  ['an empty body', ''],
  ['an array', `[${item}]`],
  ['null', 'null'],
  ['a string', '"tt0068646"'],
  ['a number', '42'],
]

/** Bodies that name fields a document database would misread or that reach a prototype. */
const reservedNames: [string, string][] = [
  ['a $set operator', '{"$set":{"name":"x"}}'],
  ['a nested operator', withField('"rating":{"$gt":1}')],
  ['a dotted name', withField('"cast.lead":"Brando"')],
  ['a nested dotted name', withField('"cast":{"lead.actor":"Brando"}')],
  ['_id', withField('"_id":"000000000000000000000001"')],
  ['__proto__', withField('"__proto__":{"isAdmin":true}')],
  ['a nested __proto__', withField('"meta":[{"__proto__":{"x":1}}]')],
  ['constructor', withField('"constructor":{"prototype":{}}')],
  ['prototype', withField('"prototype":1')],
]

describe('POST /items with bad input', () => {
  const api = useTestApp()
  const post = (body: string) =>
    api().request('/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })

  it.each([...notAnObject, ...reservedNames])('refuses %s with 400', async (_, body) => {
    await api().seed(movies.shawshank)
    await api().expectRefused(() => post(body), 400)
  })

  it.each([
    ['a missing name and genre', { id: 'tt1' }, ['name', 'genre']],
    ['an empty object', {}, ['id', 'name', 'genre']],
    ['a numeric id', { ...movies.godfather, id: 68646 }, ['id']],
    ['a name that is a list', { ...movies.godfather, name: ['The', 'Godfather'] }, ['name']],
    ['a genre that is an object', { ...movies.godfather, genre: { main: 'Crime' } }, ['genre']],
    ['a null genre', { ...movies.godfather, genre: null }, ['genre']],
    ['an empty id', { ...movies.godfather, id: '' }, ['id']],
    ['an id of 201 characters', { ...movies.godfather, id: 'x'.repeat(201) }, ['id']],
    ['a name of 501 characters', { ...movies.godfather, name: 'x'.repeat(501) }, ['name']],
    ['a genre of 101 characters', { ...movies.godfather, genre: 'x'.repeat(101) }, ['genre']],
    ['a NUL in the id', { ...movies.godfather, id: 'tt\u0000' }, ['id']],
    ['a newline in the id', { ...movies.godfather, id: 'tt1\n' }, ['id']],
    ['a tab in the id', { ...movies.godfather, id: 'tt\t1' }, ['id']],
    ['a DEL in the id', { ...movies.godfather, id: 'tt1\u007f' }, ['id']],
  ])('refuses %s with 400 and the issues by field', async (_, body, fields) => {
    await api().seed(movies.shawshank)
    const answer = await api().expectRefused(() => api().post(body), 400)
    expect(answer).toEqual({
      error: 'invalid request body',
      issues: fields.map((path) => ({ path, message: expect.any(String) })),
    })
  })

  it('accepts the longest id, name and genre allowed', async () => {
    const longest = { id: 'i'.repeat(200), name: 'n'.repeat(500), genre: 'g'.repeat(100) }
    expect((await api().post(longest)).status).toBe(201)
  })

  it('refuses values nested too deep with 400, promptly however deep they go', async () => {
    await api().seed(movies.shawshank)
    for (const depth of [maxNestingDepth, 40, 30_000]) {
      const answer = await api().expectRefused(
        () => post(withField(`"deep":${nested(depth)}`)),
        400,
      )
      expect(answer).toMatchObject({ issues: [{ message: expect.stringMatching(/nest/) }] })
    }
  })

  it('accepts values nested as deep as allowed', async () => {
    const response = await post(withField(`"deep":${nested(maxNestingDepth - 2)}`))
    expect(response.status).toBe(201)
  })
})

describe('PUT /items/:id with bad input', () => {
  const api = useTestApp()
  const put = (body: string) =>
    api().request(`/items/${movies.shawshank.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body,
    })

  it.each([
    ...notAnObject,
    ...reservedNames,
    ['an empty object', '{}'],
    ['a numeric name', '{"name":5}'],
    ['a null genre', '{"genre":null}'],
    ['an empty new id', '{"id":""}'],
    ['a control character in the new id', '{"id":"tt\\u0007"}'],
    ['a new id of 201 characters', `{"id":"${'x'.repeat(201)}"}`],
    ['a name of 501 characters', `{"name":"${'x'.repeat(501)}"}`],
  ])('refuses %s with 400', async (_, body) => {
    await api().seed(movies.shawshank, movies.godfather)
    await api().expectRefused(() => put(body), 400)
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
