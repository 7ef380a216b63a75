import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { clientAddress } from './client-address.js'

const addressOf = async (headers: Record<string, string>, trusted?: string) => {
  const app = new Hono().get('/', (c) => c.text(clientAddress(c, trusted)))
  return (await app.request('/', { headers })).text()
}

describe('clientAddress', () => {
  it('reads a header only when it is the one the proxy in front sets', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9', 'cf-connecting-ip': '198.51.100.2' }
    expect(await addressOf(forwarded)).toBe('198.51.100.2')
    expect(await addressOf(forwarded, 'x-forwarded-for')).toBe('203.0.113.9')
  })

  it('takes the address the proxy added last, not one the client wrote before it', async () => {
    const chain = { 'x-forwarded-for': '10.9.9.9, 203.0.113.9' }
    expect(await addressOf(chain, 'x-forwarded-for')).toBe('203.0.113.9')
  })

  it('falls back to the peer when the trusted header is missing', async () => {
    expect(await addressOf({ 'cf-connecting-ip': '198.51.100.2' }, 'x-real-ip')).toBe(
      '198.51.100.2',
    )
    expect(await addressOf({})).toBe('unknown')
  })
})
