import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { apiRoute } from './api-route.js'
import { openApiDocument } from './openapi-document.js'
import { documented, named } from './schema-docs.js'

const label = documented(z.string().check(z.minLength(1)), { example: 'Ada' })
const tag = named('Tag', z.object({ label }), { description: 'A tag' })
const note = named('Note', z.object({ text: z.string(), tags: z.array(tag) }))
/** Named, and found only inside an unnamed schema. */
const summary = named('Summary', z.object({ title: z.string() }))

const listNotesRoute = apiRoute({
  method: 'get',
  path: '/notes/{folder}',
  operationId: 'listNotes',
  parameters: [{ name: 'If-None-Match', in: 'header', schema: { type: 'string' } }],
  request: {
    params: z.object({ folder: documented(z.string(), { description: 'The folder' }) }),
    query: z.object({
      limit: z._default(z.coerce.number(), 20),
      cursor: z.optional(documented(z.string(), { description: 'Where the page starts' })),
      sort: z.string(),
    }),
    headers: z.object({ 'x-trace': z.optional(z.string()) }),
  },
  responses: {
    200: {
      description: 'The notes',
      content: { 'application/json': { schema: z.array(summary) } },
    },
    304: { description: 'Not modified' },
  },
})

const addNoteRoute = apiRoute({
  method: 'post',
  path: '/notes/{folder}',
  operationId: 'addNote',
  request: {
    params: z.object({ folder: z.string() }),
    body: { content: { 'application/json': { schema: note } } },
  },
  responses: {
    201: {
      description: 'A stream of what changed',
      content: { 'text/event-stream': { schema: { type: 'string' }, example: 'data: {}' } },
    },
  },
})

const document = openApiDocument([listNotesRoute, addNoteRoute], {
  info: { title: 'notes', version: '1' },
  schemas: { Extra: { type: 'integer' } },
})

describe('openApiDocument', () => {
  it('puts the operations of one path together, in the order of the routes', () => {
    expect(Object.keys(document.paths)).toEqual(['/notes/{folder}'])
    expect(Object.keys(document.paths['/notes/{folder}'] ?? {})).toEqual(['get', 'post'])
  })

  it('makes every named schema a component, found at any depth, and refers to it', () => {
    const { schemas } = document.components
    expect(Object.keys(schemas).sort()).toEqual(['Extra', 'Note', 'Summary', 'Tag'])
    expect(schemas.Note).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string' },
        tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
      },
      required: ['text', 'tags'],
    })
    expect(schemas.Tag).toMatchObject({
      description: 'A tag',
      properties: { label: { type: 'string', minLength: 1, example: 'Ada' } },
    })
    expect(document.paths['/notes/{folder}']?.get).toMatchObject({
      responses: {
        200: {
          content: {
            'application/json': {
              schema: { type: 'array', items: { $ref: '#/components/schemas/Summary' } },
            },
          },
        },
        304: { description: 'Not modified' },
      },
    })
    expect(document.paths['/notes/{folder}']?.post).toMatchObject({
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
      },
    })
  })

  it('writes a parameter for each property of the checked parts, required unless it may be absent', () => {
    expect(document.paths['/notes/{folder}']?.get).toHaveProperty('parameters', [
      { name: 'If-None-Match', in: 'header', schema: { type: 'string' } },
      {
        name: 'folder',
        in: 'path',
        required: true,
        description: 'The folder',
        schema: { type: 'string', description: 'The folder' },
      },
      { name: 'limit', in: 'query', required: false, schema: { type: 'number', default: 20 } },
      {
        name: 'cursor',
        in: 'query',
        required: false,
        description: 'Where the page starts',
        schema: { type: 'string', description: 'Where the page starts' },
      },
      { name: 'sort', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'x-trace', in: 'header', required: false, schema: { type: 'string' } },
    ])
  })

  it('keeps JSON Schema written out as it is, with its example', () => {
    expect(document.paths['/notes/{folder}']?.post).toMatchObject({
      responses: {
        201: {
          content: { 'text/event-stream': { schema: { type: 'string' }, example: 'data: {}' } },
        },
      },
    })
  })
})
