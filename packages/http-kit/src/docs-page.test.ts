import { describe, expect, it } from 'vitest'
import { type OpenApiDocument, renderDocsPage } from './docs-page.js'

const error = {
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
}

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'shop', version: '2.1.0', description: 'Items; errors are `{"error": "..."}`.' },
  paths: {
    '/items/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        summary: 'Read one item',
        parameters: [
          {
            name: 'fields',
            in: 'query',
            description: 'Which fields to answer',
            schema: { type: 'string', maxLength: 50, example: 'name,genre' },
          },
        ],
        responses: {
          200: {
            description: 'The item',
            headers: { ETag: { description: 'Its version' } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
          },
          404: { description: 'No item has that id', ...error },
        },
      },
      put: {
        summary: 'Set fields of an item',
        security: [{ ApiKey: [] }, {}],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { genre: { type: 'string', minLength: 1 } },
                required: ['genre'],
              },
            },
          },
        },
        responses: { 200: { description: 'Updated; every item', ...error } },
      },
    },
  },
  components: {
    securitySchemes: {
      ApiKey: { type: 'apiKey', in: 'header', name: 'x-apikey', description: 'When configured' },
    },
    schemas: {
      Item: {
        type: 'object',
        properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['id'],
      },
      Error: { type: 'object', properties: { error: { type: 'string' } } },
    },
  },
}

/** The page's text as a reader sees it: blocks and cells apart, entities decoded, spaces collapsed. */
const visibleText = (page: string) =>
  page
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<\/?(?:p|h\d|br|td|th|tr|table|section)\b[^>]*>/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')

describe('renderDocsPage', () => {
  const page = renderDocsPage(document, 'Shop API').html
  const text = visibleText(page)

  it('shows every operation with its method, path and summary', () => {
    expect(page).toContain('<span class="method get">GET</span> <code>/items/{id}</code>')
    expect(page).toContain('<span class="method put">PUT</span> <code>/items/{id}</code>')
    expect(text).toContain('GET /items/{id} Read one item')
    expect(text).toContain('PUT /items/{id} Set fields of an item')
  })

  it("shows an operation's parameters, its path's too, with their types and limits", () => {
    expect(text).toContain('id * path string')
    expect(text).toContain(
      'fields query string Which fields to answer. max length 50; e.g. "name,genre"',
    )
  })

  it('shows the request body, with the fields of an inline object', () => {
    expect(text).toContain('Request body application/json: { genre: string }')
    expect(text).toContain('genre * string min length 1')
  })

  it('shows each response with its status, meaning, headers and body, linking named schemas', () => {
    expect(text).toContain('200 The item Header ETag: Its version application/json: Item')
    expect(text).toContain('404 No item has that id application/json: Error')
    expect(page).toContain('<a href="#schema-Item">Item</a>')
    expect(page).toContain('<section class="card" id="schema-Item">')
    expect(text).toContain('tags string[]')
  })

  it('says which operations need a key, and when', () => {
    expect(text).toContain('Needs header x-apikey when the service is configured with one.')
    expect(text.match(/Needs header/g)).toHaveLength(1)
    expect(text).toContain('ApiKey header x-apikey: When configured')
  })

  it('shows the title, version and description, with `backticked` parts as code', () => {
    expect(page).toContain('<title>Shop API</title>')
    expect(text).toContain('Shop API 2.1.0')
    expect(page).toContain('errors are <code>{&quot;error&quot;: &quot;...&quot;}</code>.')
  })

  it('links the document relative to the page, so that it works under a path prefix', () => {
    expect(page).toContain('<a href="openapi.json">')
  })

  it('loads nothing and runs nothing: no script, no inline style or handler attribute', () => {
    expect(page).not.toMatch(/<script|<link|\ssrc=|\sstyle=|\son\w+=|href="?(https?:|\/\/)/i)
    const { html, style } = renderDocsPage(document, 'Shop API')
    expect(html).toContain(`<style>${style}</style>`)
  })
})

describe('renderDocsPage, given hostile text', () => {
  const attack = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&'
  const hostile: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: attack, version: attack, description: `\`${attack}\` ${attack}` },
    paths: {
      [`/x/${attack}`]: {
        post: {
          summary: attack,
          description: attack,
          parameters: [
            { name: attack, in: 'query', description: attack, schema: { pattern: attack } },
          ],
          requestBody: {
            content: { [attack]: { schema: { $ref: `#/components/schemas/${attack}` } } },
          },
          responses: {
            [attack]: { description: attack, headers: { [attack]: { description: attack } } },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        [attack]: { type: 'apiKey', in: attack, name: attack, description: attack },
      },
      schemas: { [attack]: { description: attack, properties: { [attack]: { example: attack } } } },
    },
  }
  const { html } = renderDocsPage(hostile, attack)

  it('shows it as text, never as markup', () => {
    const tags = html.match(/<[^>]*>/g) ?? []
    expect(tags.filter((tag) => /^<(script|img)|\s(on\w+|src|style)=/i.test(tag))).toEqual([])
    expect(html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;',
    )
    expect(visibleText(html)).toContain(`POST /x/${attack} ${attack}`)
  })

  it('keeps every id and link target to letters, digits and dashes', () => {
    for (const [, value] of html.matchAll(/\s(?:id="|href="#)([^"]*)"/g)) {
      expect(value).toMatch(/^[\w-]+$/)
    }
  })
})
