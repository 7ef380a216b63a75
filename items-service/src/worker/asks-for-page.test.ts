import { describe, expect, it } from 'vitest'
import { asksForPage } from './asks-for-page.js'

describe('asksForPage', () => {
  it.each([
    ['GET', 'http://items.test/'],
    ['HEAD', 'http://items.test/'],
    ['GET', 'http://items.test/?from=mail'],
    ['GET', 'https://items.example:8787/'],
  ])('takes %s %s for the page', (method, url) => {
    expect(asksForPage(new Request(url, { method }))).toBe(true)
  })

  it.each([
    ['POST', 'http://items.test/'],
    ['GET', 'http://items.test/items'],
    ['GET', 'http://items.test/items/tt1'],
    ['GET', 'http://items.test/items?next=/'],
    ['GET', 'http://items.test//'],
    ['GET', 'http://items.test/%2F'],
  ])('leaves %s %s to the object', (method, url) => {
    expect(asksForPage(new Request(url, { method }))).toBe(false)
  })
})
