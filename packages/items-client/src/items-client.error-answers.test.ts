import { describe, expect, it } from 'vitest'
import { movie, recordingFetch, refusal } from '../test/support/request-fixtures.js'
import { ItemsApiError } from './items-api-error.js'
import { createItemsClient } from './items-client.js'

describe('an error answer', () => {
  const failWith = (answer: () => Response) =>
    createItemsClient('http://api.test', { fetch: recordingFetch(answer).fetch })

  it('rejects with an ItemsApiError carrying the status and the JSON body', async () => {
    const body = {
      error: 'invalid request body',
      issues: [{ path: 'name', message: 'Too small: expected string to have >=1 characters' }],
    }
    const error = await refusal(failWith(() => Response.json(body, { status: 400 })).create(movie))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({ name: 'ItemsApiError', status: 400, body })
    expect((error as ItemsApiError).message).toBe(
      'invalid request body (name: Too small: expected string to have >=1 characters)',
    )
  })

  it('names the status when the body is not the service’s', async () => {
    const page = () =>
      new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' })
    await expect(failWith(page).list()).rejects.toMatchObject({
      status: 502,
      body: { error: '502 Bad Gateway' },
      message: '502 Bad Gateway',
    })
    const other = () => Response.json({ message: 'nope' }, { status: 500 })
    await expect(failWith(other).list()).rejects.toMatchObject({ body: { error: '500' } })
  })
})

describe('a 2xx that is not JSON', () => {
  const answering = (answer: () => Response) =>
    createItemsClient('http://api.test', { fetch: recordingFetch(answer).fetch })

  it('is an ItemsApiError of its status that names what it is, unread', async () => {
    let cancelled = false
    const stream = new ReadableStream({
      cancel: () => {
        cancelled = true
      },
    })
    const portal = () =>
      new Response(stream, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } })
    const error = await refusal(answering(portal).list())
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({
      status: 200,
      message: '200: the answer is text/html; charset=utf-8, not JSON',
    })
    expect(cancelled).toBe(true)
  })

  it('is an ItemsApiError, not a SyntaxError, when the JSON is cut short', async () => {
    const broken = () =>
      new Response('[{"_id":', { headers: { 'content-type': 'application/json' } })
    const error = await refusal(answering(broken).get('tt0111161'))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({ status: 200, message: '200: the answer is not valid JSON' })
    // Bytes get no Content-Type of their own: the body is tried as JSON.
    const bytes = new TextEncoder().encode('<html>')
    const untyped = () => new Response(bytes, { status: 201, statusText: 'Created' })
    await expect(answering(untyped).create(movie)).rejects.toMatchObject({
      status: 201,
      message: '201 Created: the answer is not valid JSON',
    })
  })
})
