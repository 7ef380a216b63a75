import type { OpenAPIHono } from '@hono/zod-openapi'

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
  additionalProperties?: unknown
}
type Operation = {
  summary?: string
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[]
  requestBody?: { content?: Record<string, { schema?: Schema }> }
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: Schema }> }
  >
  security?: Record<string, string[]>[]
}

const methods = ['get', 'post', 'put', 'delete', 'patch'] as const

/** Text whose `backticked` parts are code, as in the document's descriptions. */
function Prose({ text }: { text: string | undefined }) {
  const parts = (text ?? '').split('`')
  return <>{parts.map((part, index) => (index % 2 === 1 ? <code>{part}</code> : part))}</>
}

/** A schema's name or short type, e.g. `Item`, `Item[]`, `string`. */
function typeName(schema: Schema | undefined): string {
  if (!schema) return ''
  if (schema.$ref) return schema.$ref.split('/').pop() ?? schema.$ref
  if (schema.type === 'array') return `${typeName(schema.items)}[]`
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any')
}

function constraints(schema: Schema): string {
  const notes = [
    schema.minLength !== undefined && `min ${schema.minLength}`,
    schema.maxLength !== undefined && `max ${schema.maxLength}`,
    schema.pattern && `pattern ${schema.pattern}`,
    schema.example !== undefined && `e.g. ${JSON.stringify(schema.example)}`,
  ]
  return notes.filter(Boolean).join(', ')
}

function SchemaTable({ name, schema }: { name: string; schema: Schema }) {
  const fields = Object.entries(schema.properties ?? {})
  return (
    <section class="card" id={`schema-${name}`}>
      <h3>{name}</h3>
      {schema.description && (
        <p>
          <Prose text={schema.description} />
        </p>
      )}
      {fields.length === 0 ? (
        <p>
          <code>{typeName(schema)}</code>
        </p>
      ) : (
        <table>
          <tbody>
            {fields.map(([field, fieldSchema]) => (
              <tr>
                <td>
                  <code>{field}</code>
                  {schema.required?.includes(field) ? ' *' : ''}
                </td>
                <td>
                  <code>{typeName(fieldSchema)}</code>
                </td>
                <td>
                  {[fieldSchema.description, constraints(fieldSchema)].filter(Boolean).join('. ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function OperationCard({
  method,
  path,
  operation,
}: {
  method: string
  path: string
  operation: Operation
}) {
  const body = Object.entries(operation.requestBody?.content ?? {})[0]
  return (
    <section class="card operation" id={`${method}-${path}`}>
      <h3>
        <span class={`method ${method}`}>{method.toUpperCase()}</span> <code>{path}</code>
      </h3>
      {operation.summary && <p>{operation.summary}</p>}
      {operation.parameters?.map((parameter) => (
        <p>
          {parameter.in} parameter <code>{parameter.name}</code>:{' '}
          <code>{typeName(parameter.schema)}</code>
        </p>
      ))}
      {body && (
        <p>
          Body <code>{body[0]}</code>:{' '}
          <a href={`#schema-${typeName(body[1].schema)}`}>{typeName(body[1].schema)}</a>
        </p>
      )}
      {operation.security && (
        <p>
          Needs header <code>x-apikey</code> when an API key is configured.
        </p>
      )}
      <table>
        <tbody>
          {Object.entries(operation.responses ?? {}).map(([status, response]) => (
            <tr>
              <td>
                <strong>{status}</strong>
              </td>
              <td>
                <Prose text={response.description} />
              </td>
              <td>
                <code>{typeName(Object.values(response.content ?? {})[0]?.schema)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** Renders an OpenAPI document as one self-contained HTML page: no script, no CDN. */
export function renderDocsPage(document: OpenAPIDocument): string {
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = (item as Record<string, Operation | undefined>)[method]
      return operation ? [{ method, path, operation }] : []
    }),
  )
  const schemas = Object.entries((document.components?.schemas ?? {}) as Record<string, Schema>)
  const page = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${document.info.title} API`}</title>
        <style dangerouslySetInnerHTML={{ __html: docsStyle }} />
      </head>
      <body>
        <main>
          <h1>
            {document.info.title} <small>{document.info.version}</small>
          </h1>
          {document.info.description && (
            <p>
              <Prose text={document.info.description} />
            </p>
          )}
          <p>
            Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI {document.openapi})
          </p>
          <h2>Endpoints</h2>
          {operations.map((entry) => (
            <OperationCard {...entry} />
          ))}
          <h2>Schemas</h2>
          {schemas.map(([name, schema]) => (
            <SchemaTable name={name} schema={schema} />
          ))}
        </main>
      </body>
    </html>
  )
  return `<!doctype html>${page.toString()}`
}

const docsStyle = `
body{margin:0;background:#f6f7f9;color:#1d2433;font:16px/1.45 system-ui,sans-serif}
main{max-width:60rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1 small{font-size:1rem;color:#5b6478;font-weight:normal}
.card{background:#fff;border:1px solid #dde1e8;border-radius:10px;padding:.75rem 1.25rem;margin:0 0 1rem}
h3{margin:.25rem 0 .5rem;font-size:1.05rem}
table{border-collapse:collapse;width:100%}td{border-top:1px solid #dde1e8;padding:.35rem .5rem;vertical-align:top}
code{font-family:ui-monospace,Menlo,monospace;font-size:.9em}
.method{display:inline-block;min-width:4.5rem;text-align:center;border-radius:6px;padding:.1rem .5rem;color:#fff;font-size:.85rem}
.get{background:#2f7d4f}.post{background:#3557d6}.put{background:#a86400}.delete{background:#c0392b}.patch{background:#6b4fbf}
a{color:#3557d6}
`
