import { html, raw } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'

type Operation = {
  summary?: string
  description?: string
  security?: unknown[]
  parameters?: { name: string; in: string; description?: string; schema?: unknown }[]
  requestBody?: { content?: Record<string, { schema?: unknown }> }
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: unknown }> }
  >
}
type Document = {
  info: { title: string; version: string; description?: string }
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, unknown> }
}

/**
 * The page's whole stylesheet, inlined so that it needs no other request; the docs route's
 * Content-Security-Policy allows it by a hash of this very text.
 */
export const docsStyle = `
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 58rem; padding: 1.5rem;
    color: #1f2328; }
  h1 { margin-bottom: 0 } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d0d7de }
  section.op { border: 1px solid #d0d7de; border-radius: 8px; padding: .25rem 1rem 1rem;
    margin: 1rem 0 }
  .method { font: 700 13px ui-monospace, monospace; padding: .15rem .45rem; border-radius: 4px;
    color: #fff; background: #57606a; text-transform: uppercase }
  .method.post { background: #1a7f37 } .method.get { background: #0969da }
  code, pre { font: 13px ui-monospace, monospace } pre { background: #f6f8fa; padding: .75rem;
    border-radius: 6px; overflow-x: auto }
  table { border-collapse: collapse; width: 100% } td, th { text-align: left; padding: .3rem .5rem;
    border-top: 1px solid #d0d7de; vertical-align: top }
  .key { color: #9a6700; font-size: 13px }
`

const json = (value: unknown) => JSON.stringify(value, null, 2)

function schemaBlock(content?: Record<string, { schema?: unknown }>) {
  if (!content) return ''
  return Object.entries(content).map(
    ([type, { schema }]) => html`<div><code>${type}</code><pre>${json(schema)}</pre></div>`,
  )
}

function operation(path: string, method: string, op: Operation) {
  const id = `${method}-${path}`.replace(/[^\w-]/g, '')
  return html`<section class="op" id="${id}">
    <h3><span class="method ${method}">${method}</span> <code>${path}</code></h3>
    <p>${op.summary ?? ''}</p>
    ${op.description ? html`<p>${op.description}</p>` : ''}
    ${op.security?.length ? html`<p class="key">Needs header <code>x-apikey</code>.</p>` : ''}
    ${
      op.parameters?.length
        ? html`<h4>Parameters</h4><table>${op.parameters.map(
            (p) => html`<tr><td><code>${p.name}</code> (${p.in})</td><td>${p.description ?? ''}</td>
        <td><code>${json(p.schema)}</code></td></tr>`,
          )}</table>`
        : ''
    }
    ${op.requestBody ? html`<h4>Request body</h4>${schemaBlock(op.requestBody.content)}` : ''}
    <h4>Responses</h4>
    <table>${Object.entries(op.responses ?? {}).map(
      ([status, response]) => html`<tr><td><strong>${status}</strong></td>
        <td>${response.description ?? ''}${schemaBlock(response.content)}</td></tr>`,
    )}</table>
  </section>`
}

/**
 * The docs page: every operation and schema of the OpenAPI document, rendered on the server
 * with no script and no asset from elsewhere, so it works offline and inside a Worker.
 */
export function docsPage(document: object): HtmlEscapedString | Promise<HtmlEscapedString> {
  const doc = document as Document
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => operation(path, method, op)),
  )
  const schemas = Object.entries(doc.components?.schemas ?? {})
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${doc.info.title} ${doc.info.version}</title>
    <style>${raw(docsStyle)}</style>
  </head>
  <body>
    <main>
      <h1>${doc.info.title}</h1>
      <p>Version ${doc.info.version}. ${doc.info.description ?? ''}</p>
      <p>Machine-readable: <a href="openapi.json"><code>openapi.json</code></a> (OpenAPI 3.1).</p>
      <h2>Operations</h2>
      ${operations}
      <h2>Schemas</h2>
      ${schemas.map(([name, schema]) => html`<h3 id="schema-${name}">${name}</h3><pre>${json(schema)}</pre>`)}
    </main>
  </body>
</html>`
}
