import { describe, expect, it } from 'vitest'
import { blankFields, failureOf, plainIssue, Refusal, readFailure } from './api-error.js'
import { createItemsClient, ItemsApiError } from './items-api.js'

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

describe('failureOf', () => {
  it("puts the issues of the form's fields at their field", () => {
    const error = new ItemsApiError(400, {
      error: 'invalid request body',
      issues: [{ path: 'name', message: 'Too small: expected string to have >=1 characters' }],
    })
    expect(failureOf(error, 'items service', ['id', 'name', 'genre'])).toEqual({
      message: 'Please correct the marked fields.',
      fields: { name: 'Name must not be empty' },
    })
  })

  it('keeps the other issues and the error in the sentence', () => {
    const error = new ItemsApiError(400, {
      error: 'invalid request body',
      issues: [{ path: 'year', message: 'bad' }],
    })
    expect(failureOf(error, 'items service', ['name'])).toEqual({
      message: 'invalid request body (year: bad)',
      fields: {},
    })
  })

  it("says the service's error of a refused write", () => {
    const error = new ItemsApiError(409, { error: "an item with id 'tt1' already exists" })
    expect(failureOf(error, 'items service').message).toBe("an item with id 'tt1' already exists")
  })

  it('says why the client sent nothing', async () => {
    const items = createItemsClient('http://localhost:4000')
    const refused = await items.read('..').catch((error: unknown) => error)
    expect(failureOf(refused, 'items service').message).toMatch(/^cannot send the item id "\.\.": /)
  })

  it('keeps the words of a refusal the page made itself', () => {
    const refusal = new Refusal({ message: 'Use the other key.', fields: { apikey: 'Refused' } })
    expect(failureOf(refusal, 'mail service')).toEqual({
      message: 'Use the other key.',
      fields: { apikey: 'Refused' },
    })
  })

  it('names the service for a request that got no answer', () => {
    expect(failureOf(new TypeError('Failed to fetch'), 'items service').message).toBe(
      'could not reach the items service (Failed to fetch)',
    )
  })
})

describe('readFailure', () => {
  it('reads the error and issues of an answer', async () => {
    const answer = Response.json(
      { error: 'invalid request body', issues: [{ path: 'email', message: 'Invalid email' }] },
      { status: 400 },
    )
    expect(await readFailure(answer)).toEqual({
      message: 'invalid request body (email: Invalid email)',
      fields: {},
    })
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
