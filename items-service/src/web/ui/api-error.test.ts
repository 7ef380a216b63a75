import { describe, expect, it } from 'vitest'
import { blankFields, plainIssue, readFailure } from './api-error.js'

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('plainIssue', () => {
  it.each([
    ['name', 'Too small: expected string to have >=1 characters', 'Name must not be empty'],
    [
      'id',
      'Too big: expected string to have <=200 characters',
      'Id must be at most 200 characters',
    ],
    ['genre', 'Invalid input: expected string, received undefined', 'Genre is required'],
    ['id', 'must not contain control characters', 'Id must not contain control characters'],
  ])('words %s: %s as "%s"', (field, message, plain) => {
    expect(plainIssue(field, message)).toBe(plain)
  })
})

describe('readFailure', () => {
  it("puts the issues of the form's fields at their field", async () => {
    const failure = await readFailure(
      answer(400, {
        error: 'invalid request body',
        issues: [{ path: 'name', message: 'Too small: expected string to have >=1 characters' }],
      }),
      ['id', 'name', 'genre'],
    )
    expect(failure).toEqual({
      message: 'Please correct the marked fields.',
      fields: { name: 'Name must not be empty' },
    })
  })

  it('keeps the other issues and the error in the sentence', async () => {
    const failure = await readFailure(
      answer(400, { error: 'invalid request body', issues: [{ path: 'year', message: 'bad' }] }),
      ['name'],
    )
    expect(failure).toEqual({ message: 'invalid request body (year: bad)', fields: {} })
  })

  it('falls back to the status line for a body that is not JSON', async () => {
    const failure = await readFailure(
      new Response('<html>', { status: 502, statusText: 'Bad Gateway' }),
    )
    expect(failure.message).toBe('502 Bad Gateway')
  })
})

describe('blankFields', () => {
  it('names empty and whitespace-only fields in the words of the server', () => {
    expect(blankFields({ id: 'tt1', name: '   ', genre: '' })).toEqual({
      name: 'Name must not be empty',
      genre: 'Genre must not be empty',
    })
  })
})
