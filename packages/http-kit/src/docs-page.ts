import { html, raw } from 'hono/html'

/** The part of an OpenAPI 3.1 document the page needs to know the type of; the rest is read. */
export type OpenApiDocument = {
  openapi: string
  info: { title: string; version: string; description?: string }
  paths?: unknown
  components?: unknown
  security?: unknown
}

/** The docs page, and the exact text of its one inline `<style>`, for its policy's hash. */
export type DocsPage = { html: string; style: string }

type Schema = {
  $ref?: string
  type?: string | string[]
  items?: Schema
  properties?: Record<string, Schema>
  required?: string[]
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  enum?: unknown[]
  const?: unknown
  [note: string]: unknown
}
type Content = Record<string, { schema?: Schema }>
type Parameter = {
  name: string
  in: string
  required?: boolean
  description?: string
  schema?: Schema
}
type Response = {
  description?: string
  headers?: Record<string, { description?: string }>
  content?: Content
}
type Operation = {
  summary?: string
  description?: string
  deprecated?: boolean
  parameters?: Parameter[]
  requestBody?: { description?: string; content?: Content }
  responses?: Record<string, Response>
  security?: Record<string, unknown>[]
}
type SecurityScheme = {
  type?: string
  in?: string
  name?: string
  scheme?: string
  description?: string
}
type Components = Record<string, Record<string, unknown> | undefined>
/** What every operation's card reads besides the operation. */
type Context = { components: Components; security: unknown }
type Html = ReturnType<typeof html>

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

const style = `
body{margin:0;background:#f6f7f9;color:#1d2433;font:16px/1.45 system-ui,sans-serif}
main{max-width:60rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1 small{font-size:1rem;color:#5b6478;font-weight:normal}
h2{margin-top:2.5rem;border-bottom:1px solid #dde1e8}
h3{margin:.25rem 0 .5rem;font-size:1.05rem}
h4{margin:.75rem 0 .25rem;font-size:.95rem}
.card{background:#fff;border:1px solid #dde1e8;border-radius:10px;padding:.75rem 1.25rem;margin:0 0 1rem}
table{border-collapse:collapse;width:100%}
th,td{border-top:1px solid #dde1e8;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{font-size:.85rem;color:#5b6478;font-weight:600}
code{font-family:ui-monospace,Menlo,monospace;font-size:.9em;overflow-wrap:anywhere}
.method{display:inline-block;min-width:4.5rem;text-align:center;border-radius:6px;padding:.1rem .5rem;color:#fff;background:#5b6478;font-size:.85rem}
.get{background:#2f7d4f}.post{background:#3557d6}.put{background:#a86400}.delete{background:#c0392b}.patch{background:#6b4fbf}
.key{color:#8a5a00}
a{color:#3557d6}
`

/** Free text as the page shows it, whatever the document holds in its place. */
const text = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)

/** Text whose `backticked` parts are code, as in the documents' descriptions. */
const prose = (value: unknown): Html[] =>
  text(value)
    .split('`')
    .map((part, index) => (index % 2 ? html`<code>${part}</code>` : html`${part}`))

/** An id of letters, digits and dashes (`get-items-id`), so that `#id` links need no escaping. */
const anchor = (...parts: string[]) => parts.join(' ').replace(/\W+/g, '-').replace(/^-|-$/g, '')

const refName = (ref: string) => ref.split('/').pop() ?? ref

/** The object a local `$ref` points to (`#/components/<kind>/<name>`), or the value itself. */
function resolve<T>(
  value: T | { $ref?: string } | undefined,
  components: Components,
): T | undefined {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref
  if (typeof ref !== 'string') return value as T | undefined
  const [, , kind = '', name = ''] = ref.split('/')
  return components[kind]?.[name] as T | undefined
}

/** A schema's short type, e.g. `Item[]`, `string | null`, `{ path: string }`; names link to their card. */
function typeOf(schema: Schema | undefined): Html {
  if (!schema) return html`any`
  if (schema.$ref)
    return html`<a href="#${anchor('schema', refName(schema.$ref))}">${refName(schema.$ref)}</a>`
  const union = schema.anyOf ?? schema.oneOf
  if (union)
    return html`${union.map((member, index) => html`${index ? ' | ' : ''}${typeOf(member)}`)}`
  if (schema.allOf)
    return html`${schema.allOf.map((part, index) => html`${index ? ' & ' : ''}${typeOf(part)}`)}`
  if (Array.isArray(schema.enum))
    return html`${schema.enum.map((value) => JSON.stringify(value)).join(' | ')}`
  if (schema.const !== undefined) return html`${JSON.stringify(schema.const)}`
  if (schema.type === 'array') return html`${typeOf(schema.items)}[]`
  if (schema.properties) {
    const fields = Object.entries(schema.properties).map(
      ([name, field], index) => html`${index ? ', ' : ''}${name}: ${typeOf(field)}`,
    )
    return html`{ ${fields} }`
  }
  return html`${Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any')}`
}

const limits: [keyword: string, label: string][] = [
  ['format', 'format'],
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
  ['minimum', 'min'],
  ['maximum', 'max'],
  ['minItems', 'min items'],
  ['maxItems', 'max items'],
  ['pattern', 'pattern'],
  ['default', 'default'],
  ['example', 'e.g.'],
]

/** A field's description and constraints, e.g. `max length 254; e.g. "ada@example.com"`. */
function notes(schema: Schema | undefined, description?: string): Html {
  const found = limits.filter(([keyword]) => schema?.[keyword] !== undefined)
  const values = found.map(([keyword, label], index) => {
    const value = schema?.[keyword]
    const shown =
      keyword === 'pattern' || keyword === 'format' ? text(value) : JSON.stringify(value)
    return html`${index ? '; ' : ''}${label} <code>${shown}</code>`
  })
  const said = description ?? schema?.description
  return html`${said ? html`${prose(said)}${found.length ? '. ' : ''}` : ''}${values}`
}

function fieldsTable(schema: Schema): Html {
  const rows = Object.entries(schema.properties ?? {}).map(
    ([name, field]) =>
      html`<tr><td><code>${name}</code>${schema.required?.includes(name) ? ' *' : ''}</td><td><code>${typeOf(field)}</code></td><td>${notes(field)}</td></tr>`,
  )
  return html`<table><thead><tr><th>Field (* required)</th><th>Type</th><th>Notes</th></tr></thead><tbody>${rows}</tbody></table>`
}

/** Each media type of a body with its type, and the fields of an inline object. */
function bodies(content: Content | undefined): Html[] {
  return Object.entries(content ?? {}).map(
    ([type, { schema }]) =>
      html`<p><code>${type}</code>: <code>${typeOf(schema)}</code></p>${schema?.properties && !schema.$ref ? fieldsTable(schema) : ''}`,
  )
}

const keysOf = (value: unknown) => (value && typeof value === 'object' ? Object.keys(value) : [])

/** Which credentials an operation needs, from its security requirements or the document's. */
function securityNote(requirements: unknown, components: Components): Html | '' {
  if (!Array.isArray(requirements)) return ''
  const names = [...new Set(requirements.flatMap(keysOf))]
  if (names.length === 0) return ''
  const ways = names.map((name, index) => {
    const scheme = components.securitySchemes?.[name] as SecurityScheme | undefined
    const how =
      scheme?.type === 'apiKey'
        ? html`${scheme.in} <code>${scheme.name}</code>`
        : html`<code>${scheme?.scheme ?? name}</code>`
    return html`${index ? ' or ' : ''}<a href="#${anchor('security', name)}">${how}</a>`
  })
  // An empty requirement lets a call through with no credentials at all.
  const optional = requirements.some((requirement) => keysOf(requirement).length === 0)
  return html`<p class="key">Needs ${ways}${optional ? ' when the service is configured with one' : ''}.</p>`
}

function operationCard(
  path: string,
  method: string,
  operation: Operation,
  shared: Parameter[],
  { components, security }: Context,
): Html {
  // The path's parameters hold for each of its operations, unless the operation redefines one.
  const parameters = new Map<string, Parameter>()
  for (const given of [...shared, ...(operation.parameters ?? [])]) {
    const parameter = resolve<Parameter>(given, components)
    if (parameter) parameters.set(`${parameter.in} ${parameter.name}`, parameter)
  }
  const parameterRows = [...parameters.values()].map(
    (parameter) =>
      html`<tr><td><code>${parameter.name}</code>${parameter.required ? ' *' : ''}</td><td>${parameter.in}</td><td><code>${typeOf(parameter.schema)}</code></td><td>${notes(parameter.schema, parameter.description)}</td></tr>`,
  )
  const body = resolve<NonNullable<Operation['requestBody']>>(operation.requestBody, components)
  const responses = Object.entries(operation.responses ?? {}).map(([status, given]) => {
    const response = resolve<Response>(given, components) ?? {}
    const headers = Object.entries(response.headers ?? {}).map(
      ([name, header]) => html`<br />Header <code>${name}</code>: ${prose(header.description)}`,
    )
    return html`<tr><td><strong>${status}</strong></td><td>${prose(response.description)}${headers}</td><td>${bodies(response.content)}</td></tr>`
  })
  return html`<section class="card" id="${anchor(method, path)}">
    <h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${path}</code></h3>
    ${operation.summary ? html`<p>${prose(operation.summary)}</p>` : ''}
    ${operation.description ? html`<p>${prose(operation.description)}</p>` : ''}
    ${operation.deprecated ? html`<p class="key">Deprecated.</p>` : ''}
    ${securityNote(operation.security ?? security, components)}
    ${parameterRows.length ? html`<h4>Parameters</h4><table><thead><tr><th>Name (* required)</th><th>In</th><th>Type</th><th>Notes</th></tr></thead><tbody>${parameterRows}</tbody></table>` : ''}
    ${body ? html`<h4>Request body</h4>${body.description ? html`<p>${prose(body.description)}</p>` : ''}${bodies(body.content)}` : ''}
    <h4>Responses</h4>
    <table><thead><tr><th>Status</th><th>Meaning</th><th>Body</th></tr></thead><tbody>${responses}</tbody></table>
  </section>`
}

function schemaCard(name: string, schema: Schema): Html {
  return html`<section class="card" id="${anchor('schema', name)}">
    <h3>${name}</h3>
    ${schema.description ? html`<p>${prose(schema.description)}</p>` : ''}
    ${schema.properties ? fieldsTable(schema) : html`<p><code>${typeOf(schema)}</code></p>`}
  </section>`
}

function schemeCard(name: string, scheme: SecurityScheme): Html {
  const how =
    scheme.type === 'apiKey'
      ? html`${scheme.in} <code>${scheme.name}</code>`
      : html`<code>${scheme.type} ${scheme.scheme ?? ''}</code>`
  return html`<section class="card" id="${anchor('security', name)}">
    <h3>${name}</h3>
    <p>${how}${scheme.description ? html`: ${prose(scheme.description)}` : ''}</p>
  </section>`
}

/**
 * Renders an OpenAPI 3.1 document as one self-contained HTML page: every operation with its
 * method, path, summary, parameters, request body and responses, then the security schemes and
 * the named schemas. Every text is escaped; the page has no script, no inline `style=` or
 * `on*=` attribute and nothing from elsewhere, and links the document as the relative
 * `openapi.json`, so it works behind a path prefix. Serve it with the headers of
 * `htmlHeaders({ inlineStyles: [page.style] })`.
 * @example const page = renderDocsPage(app.getOpenAPI31Document(info), 'Mail service API')
 */
export function renderDocsPage(document: OpenApiDocument, title: string): DocsPage {
  const components = (document.components ?? {}) as Components
  const context = { components, security: document.security }
  const paths = Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)
  const operations = paths.flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = item[method] as Operation | undefined
      const shared = (item.parameters ?? []) as Parameter[]
      return operation ? [operationCard(path, method, operation, shared, context)] : []
    }),
  )
  const schemes = Object.entries(components.securitySchemes ?? {}) as [string, SecurityScheme][]
  const schemas = Object.entries(components.schemas ?? {}) as [string, Schema][]
  // Every part is a string, so the template's result is one too, never a promise.
  const page = html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <style>${raw(style)}</style>
  </head>
  <body>
    <main>
      <h1>${title} <small>${document.info.version}</small></h1>
      ${document.info.description ? html`<p>${prose(document.info.description)}</p>` : ''}
      <p>Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI ${document.openapi})</p>
      <h2>Endpoints</h2>
      ${operations}
      ${schemes.length ? html`<h2>Authentication</h2>${schemes.map(([name, scheme]) => schemeCard(name, scheme))}` : ''}
      ${schemas.length ? html`<h2>Schemas</h2>${schemas.map(([name, schema]) => schemaCard(name, schema))}` : ''}
    </main>
  </body>
</html>
`
  return { html: page.toString(), style }
}
