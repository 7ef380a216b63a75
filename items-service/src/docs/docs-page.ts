import type { OpenAPIHono } from '@hono/zod-openapi'
import { html } from 'hono/html'
import { docsStyle } from './docs-style.js'

type OpenAPIDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>
type Schema = {
  $ref?: string
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  description?: string
  example?: unknown
  minLength?: number
  maxLength?: number
  pattern?: string
}
type Operation = {
  summary?: string
  parameters?: { name: string; in: string; schema?: Schema }[]
  requestBody?: { content?: Record<string, { schema?: Schema }> }
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: Schema }> }
  >
  security?: Record<string, string[]>[]
}
type Html = ReturnType<typeof html>

const methods = ['get', 'post', 'put', 'delete', 'patch'] as const

/** Text whose `backticked` parts are code, as in the document's descriptions. */
function prose(text: string | undefined): Html[] {
  return (text ?? '')
    .split('`')
    .map((part, index) => (index % 2 ? html`<code>${part}</code>` : html`${part}`))
}

/** A schema's name or short type, e.g. `Item`, `Item[]`, `string`. */
function typeName(schema: Schema | undefined): string {
  if (!schema) return ''
  if (schema.$ref) return schema.$ref.split('/').pop() ?? schema.$ref
  if (schema.type === 'array') return `${typeName(schema.items)}[]`
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any')
}

function constraints(schema: Schema): string {
  return [
    schema.description,
    schema.minLength !== undefined && `min ${schema.minLength}`,
    schema.maxLength !== undefined && `max ${schema.maxLength}`,
    schema.pattern && `pattern ${schema.pattern}`,
    schema.example !== undefined && `e.g. ${JSON.stringify(schema.example)}`,
  ]
    .filter(Boolean)
    .join('; ')
}

function schemaCard(name: string, schema: Schema): Html {
  const fields = Object.entries(schema.properties ?? {})
  const rows = fields.map(
    ([field, fieldSchema]) =>
      html`<tr><td><code>${field}</code>${schema.required?.includes(field) ? ' *' : ''}</td><td><code>${typeName(fieldSchema)}</code></td><td>${constraints(fieldSchema)}</td></tr>`,
  )
  return html`<section class="card" id="schema-${name}">
    <h3>${name}</h3>
    ${schema.description ? html`<p>${prose(schema.description)}</p>` : ''}
    ${fields.length ? html`<table><tbody>${rows}</tbody></table>` : html`<p><code>${typeName(schema)}</code></p>`}
  </section>`
}

function operationCard(method: string, path: string, operation: Operation): Html {
  const body = Object.entries(operation.requestBody?.content ?? {})[0]
  const parameters = (operation.parameters ?? []).map(
    (parameter) =>
      html`<p>${parameter.in} parameter <code>${parameter.name}</code>: <code>${typeName(parameter.schema)}</code></p>`,
  )
  const responses = Object.entries(operation.responses ?? {}).map(
    ([status, response]) =>
      html`<tr><td><strong>${status}</strong></td><td>${prose(response.description)}</td><td><code>${typeName(Object.values(response.content ?? {})[0]?.schema)}</code></td></tr>`,
  )
  return html`<section class="card operation" id="${method}-${path}">
    <h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${path}</code></h3>
    ${operation.summary ? html`<p>${operation.summary}</p>` : ''}
    ${parameters}
    ${body ? html`<p>Body <code>${body[0]}</code>: <a href="#schema-${typeName(body[1].schema)}">${typeName(body[1].schema)}</a></p>` : ''}
    ${operation.security ? html`<p>Needs header <code>x-apikey</code> when an API key is configured.</p>` : ''}
    <table><tbody>${responses}</tbody></table>
  </section>`
}

/** Renders an OpenAPI document as one self-contained HTML page: no script, no CDN. */
export function renderDocsPage(document: OpenAPIDocument): string {
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = (item as Record<string, Operation | undefined>)[method]
      return operation ? [operationCard(method, path, operation)] : []
    }),
  )
  const schemas = Object.entries((document.components?.schemas ?? {}) as Record<string, Schema>)
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${document.info.title} API</title>
    <style>${docsStyle}</style>
  </head>
  <body>
    <main>
      <h1>${document.info.title} <small>${document.info.version}</small></h1>
      <p>${prose(document.info.description)}</p>
      <p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${document.openapi})</p>
      <h2>Endpoints</h2>
      ${operations}
      <h2>Schemas</h2>
      ${schemas.map(([name, schema]) => schemaCard(name, schema))}
    </main>
  </body>
</html>
`.toString()
}
