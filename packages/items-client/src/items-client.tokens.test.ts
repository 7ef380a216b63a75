import { describe, expect, it } from 'vitest'
import { movie, recordingFetch, refusal, stored } from '../test/support/request-fixtures.js'
import { ItemsApiError } from './items-api-error.js'
import { createItemsClient } from './items-client.js'

const invalid = () =>
  Response.json(
    { error: 'invalid token: the token has expired (exp)' },
    {
      status: 401,
      headers: {
        'www-authenticate':
          'Bearer realm="items-service", error="invalid_token", error_description="the token has expired (exp)"',
      },
    },
  )
/** Answers each request in turn with the next of `answers`, then a list. */
const inTurn = (...answers: (() => Response)[]) => {
  let n = 0
  return () => (answers[n++] ?? (() => Response.json([stored])))()
}

describe("a user's token", () => {
  it('goes with every write as Authorization: Bearer, and with no read', async () => {
    const { fetch, sent } = recordingFetch(() => Response.json([stored]))
    const items = createItemsClient('http://api.test', { fetch, token: 'the-token', cache: false })
    await items.create(movie)
    await items.update(movie.id, { genre: 'Crime' })
    await items.remove(movie.id)
    await items.list()
    expect(sent.map(({ headers }) => headers.authorization)).toEqual([
      'Bearer the-token',
      'Bearer the-token',
      'Bearer the-token',
      undefined,
    ])
  })

  it('may be a function, asked at each write', async () => {
    const { fetch, sent } = recordingFetch(() => Response.json([stored]))
    let n = 0
    const items = createItemsClient('http://api.test', { fetch, token: async () => `t${++n}` })
    await items.create(movie)
    await items.remove(movie.id)
    expect(sent.map(({ headers }) => headers.authorization)).toEqual(['Bearer t1', 'Bearer t2'])
  })

  it('is asked for again once after an invalid_token 401, and the write sent again with it', async () => {
    const { fetch, sent } = recordingFetch(inTurn(invalid))
    const tokens = ['expired', 'fresh']
    const items = createItemsClient('http://api.test', { fetch, token: () => tokens.shift() })
    await expect(items.create(movie)).resolves.toEqual([stored])
    expect(sent.map(({ headers }) => headers.authorization)).toEqual([
      'Bearer expired',
      'Bearer fresh',
    ])
    expect(sent[1]?.body).toEqual(movie)
  })

  it('is asked again only once: a second refusal rejects with the service’s reason', async () => {
    const { fetch, sent } = recordingFetch(invalid)
    const items = createItemsClient('http://api.test', { fetch, token: () => 'bad' })
    const error = await refusal(items.create(movie))
    expect(error).toBeInstanceOf(ItemsApiError)
    expect(error).toMatchObject({
      status: 401,
      message: 'invalid token: the token has expired (exp)',
    })
    expect(sent).toHaveLength(2)
  })

  it('is not asked again for a 401 without invalid_token, nor when it is a plain string', async () => {
    const missing = () =>
      Response.json(
        { error: 'no token' },
        { status: 401, headers: { 'www-authenticate': 'Bearer realm="items-service"' } },
      )
    const first = recordingFetch(missing)
    await refusal(
      createItemsClient('http://api.test', { fetch: first.fetch, token: () => undefined }).create(
        movie,
      ),
    )
    expect(first.sent).toHaveLength(1)
    const second = recordingFetch(invalid)
    await refusal(
      createItemsClient('http://api.test', { fetch: second.fetch, token: 'fixed' }).create(movie),
    )
    expect(second.sent).toHaveLength(1)
  })
})
