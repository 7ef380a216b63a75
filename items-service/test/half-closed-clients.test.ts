import { killBuiltEntries, RawConnection, rawRequest } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'
import { startService, temporaryDataDir } from './support/built-service.js'
import { WorkerUnderTest } from './support/worker-under-test.js'

afterEach(killBuiltEntries)

const movie = { id: 'tt0111161', name: 'The Shawshank Redemption', genre: 'Drama' }

/** `request` sent at `url` by a client that then ends its side (a half-close): its answer. */
async function halfClosed(url: string, request: Buffer) {
  const connection = await RawConnection.open(url)
  connection.end(request)
  const answer = await connection.answer()
  connection.destroy()
  return answer && { status: answer.status, body: JSON.parse(String(answer.body)) }
}

// As `nc -N`, `socat` and some scripted clients do: the request, then the end of the client's
// side, then the answer read. The end delimits nothing (RFC 9112 §9.6): the answer must come,
// and a write it reports must be the one made.
describe('a client that ends its side once its request is sent', () => {
  it.each([
    ['node', async () => startService({ DATA_DIR: await temporaryDataDir() })],
    ['the Worker', () => WorkerUnderTest.start({})],
  ])('gets its answers on %s, a write and a query included', async (_, start) => {
    const service = await start()
    try {
      const body = JSON.stringify(movie)
      const head = {
        host: 'items.test',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      }
      const created = await halfClosed(service.url, rawRequest('POST', '/items', head, body))
      expect(created?.status).toBe(201)
      expect(created?.body).toEqual([{ ...movie, _id: expect.any(String) }])
      const queried = await halfClosed(
        service.url,
        rawRequest('GET', '/items?genre=Drama', { host: 'items.test' }),
      )
      expect(queried).toEqual({ status: 200, body: created?.body })
      const read = await halfClosed(
        service.url,
        rawRequest('GET', `/items/${movie.id}`, { host: 'items.test' }),
      )
      expect(read).toEqual({ status: 200, body: created?.body[0] })
    } finally {
      await service.stop()
    }
  })
})
