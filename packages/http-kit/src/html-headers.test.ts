import { describe, expect, it } from 'vitest'
import { htmlHeaders, inlineHash, originOf } from './html-headers.js'

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (policy ?? '').split(';').map((directive) => {
      const [name = '', ...sources] = directive.trim().split(/\s+/)
      return [name, sources.join(' ')]
    }),
  )
}

describe('inlineHash', () => {
  // Digests from `openssl dgst -sha256 -binary | base64`, not from the code under test.
  it.each([
    ['', '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='],
    ['p{color:red}', 'p0bF+un5yUb9MBO6xRb8kPHlY2BdpHVtLiFkDrZPF64='],
    ['p::after{content:"é→"}', 'HwDnSRBduHYxqSq4NQx3N4ElshBSKKWMLqnPq0fNfR4='],
  ])('gives the SHA-256 policy source of %j, of its UTF-8 bytes', async (content, digest) => {
    expect(await inlineHash(content)).toBe(`'sha256-${digest}'`)
  })
})

describe('htmlHeaders', () => {
  it('lets a page load only its own files, be framed by nobody, and send no referrer', () => {
    const headers = htmlHeaders()
    expect(directives(headers['content-security-policy'])).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'form-action': "'self'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
    })
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['referrer-policy']).toBe('no-referrer')
  })

  it('allows exactly the inline styles given, by hash, and no inline script', async () => {
    const headers = await htmlHeaders({ inlineStyles: ['p{color:red}', 'a{b:c}'] })
    const policy = directives(headers['content-security-policy'])
    expect(policy['style-src']).toBe(
      "'self' 'sha256-p0bF+un5yUb9MBO6xRb8kPHlY2BdpHVtLiFkDrZPF64=' 'sha256-0cRUVYRKwNwnl1hkfkPGjkht16b039TjFdJzmXfFK2o='",
    )
    expect(policy['script-src']).toBe("'self'")
  })

  it('lets the page call the origins of the URLs given, once each', () => {
    const headers = htmlHeaders({
      connectTo: ['https://mail.example/v1/', 'https://mail.example/v2', '/mail'],
    })
    expect(directives(headers['content-security-policy'])['connect-src']).toBe(
      "'self' https://mail.example",
    )
  })

  it('lets no URL add a directive of its own', () => {
    for (const url of ['https://a;script-src *', 'https://a%3Bb', 'https://a,b']) {
      expect(originOf(url)).toEqual([])
      expect(htmlHeaders({ connectTo: [url] })['content-security-policy']).toContain(
        "connect-src 'self';",
      )
    }
  })
})

describe('originOf', () => {
  it('gives the origin of an absolute http(s) URL, and nothing for a path or another scheme', () => {
    expect(originOf('http://localhost:4001')).toEqual(['http://localhost:4001'])
    expect(originOf('https://mail.example/v1/')).toEqual(['https://mail.example'])
    expect(originOf('http://[::1]:4001/x')).toEqual(['http://[::1]:4001'])
    expect(originOf('/mail')).toEqual([])
    expect(originOf('javascript:alert(1)')).toEqual([])
  })
})
