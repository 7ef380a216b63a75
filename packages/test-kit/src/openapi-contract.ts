import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js'

type Schema = Record<string, unknown>
type MediaType = { schema?: Schema }
type Header = { required?: boolean; schema?: Schema }
type ResponseEntry = { content?: Record<string, MediaType>; headers?: Record<string, Header> }
type Operation = {
  responses?: Record<string, ResponseEntry>
  requestBody?: { content?: Record<string, MediaType> }
}
/** The parts of an OpenAPI 3.1 document that say what the responses are. */
type ContractDocument = {
  paths?: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Schema> }
}

/** What of a request decides which operation answered it. */
export type AskedRequest = { method: string; url: string; headers?: Headers }

/** Anything with Hono's `app.request`. */
export type Requestable = {
  request(input: string | URL | Request, init?: RequestInit, ...rest: never[]): unknown
}

const components = 'openapi-components.json'
const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/i

/** Points `#/components/schemas/X` at the components schema ajv holds. */
function withComponentRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withComponentRefs)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      key === '$ref' && typeof item === 'string' && item.startsWith('#/components/schemas/')
        ? [key, `${components}#/$defs/${item.slice('#/components/schemas/'.length)}`]
        : [key, withComponentRefs(item)],
    ),
  )
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
const essence = (mediaType: string) => mediaType.split(';')[0]?.trim().toLowerCase() ?? ''
const isJson = (mediaType: string) => /^application\/(?:[\w.+-]+\+)?json$/.test(mediaType)

/**
 * An OpenAPI 3.1 document as a check of the responses an app gives: the operation is found by
 * method and path template (concrete paths first), the status must be documented (or fall under
 * `4XX`-style ranges or `default`), the Content-Type must be one documented for it, a JSON body
 * must pass its schema (JSON Schema 2020-12, with ajv), and documented headers their schemas.
 * @example const contract = await OpenApiContract.of(app); await contract.check(request, response)
 */
export class OpenApiContract {
  readonly #document: ContractDocument
  readonly #ajv = new Ajv2020({ allErrors: true, formats: { 'date-time': rfc3339 } })
  readonly #compiled = new WeakMap<Schema, ValidateFunction>()
  readonly #paths: { template: string; pattern: RegExp; params: number }[]

  /** `document`: an OpenAPI 3.1 document, as JSON. */
  constructor(document: object) {
    const { paths = {}, components: { schemas = {} } = {} } = document as ContractDocument
    this.#document = document as ContractDocument
    this.#ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs'])
    this.#ajv.addSchema({ $defs: withComponentRefs(schemas) }, components)
    this.#paths = Object.keys(paths)
      .map((template) => {
        const parts = template.split(/\{[^}]+\}/)
        const pattern = new RegExp(`^${parts.map(escapeRegExp).join('[^/]+')}$`)
        return { template, pattern, params: parts.length - 1 }
      })
      .sort((a, b) => a.params - b.params)
  }

  /** The contract of the document `app` serves at `path`. */
  static async of(app: Requestable, path = '/openapi.json'): Promise<OpenApiContract> {
    const response = (await app.request(path)) as Response
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`)
    return new OpenApiContract((await response.json()) as object)
  }

  /** Why `response` is not a response the document gives to `request`; none when it is. */
  async problemsOf(request: AskedRequest, response: Response): Promise<string[]> {
    const method = request.method.toLowerCase()
    const path = new URL(request.url, 'http://localhost').pathname
    // CORS preflights are answered before routing, for any path, and a plain OPTIONS of a path
    // with its `Allow`: they are no operation.
    if (method === 'options' && request.headers?.has('access-control-request-method')) return []
    if (method === 'options' && response.status === 204 && response.headers.has('allow')) return []
    const template = this.#paths.find(({ pattern }) => pattern.test(path))?.template
    const operations = template === undefined ? undefined : this.#document.paths?.[template]
    const operation = operations?.[method] ?? (method === 'head' ? operations?.get : undefined)
    if (!operation) {
      // Refusing what the document does not describe is right; serving it is an undocumented route.
      return response.status >= 400 ? [] : [`no documented operation answers ${response.status}`]
    }
    const responses = operation.responses ?? {}
    const status = String(response.status)
    const entry = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default
    if (!entry) return [`status ${status} is not documented for ${method} ${template}`]
    const problems = this.#headerProblems(entry, response.headers)
    const contentType = response.headers.get('content-type')
    const documented = Object.keys(entry.content ?? {})
    if (method === 'head' || response.status === 204 || response.status === 304) return problems
    if (documented.length === 0) {
      if (contentType !== null) problems.push(`a body (${contentType}) where the document has none`)
      return problems
    }
    if (contentType === null) return [...problems, `no Content-Type; documented: ${documented}`]
    const type = essence(contentType)
    const [type1] = type.split('/')
    const key = documented.find((candidate) =>
      [type, `${type1}/*`, '*/*'].includes(essence(candidate)),
    )
    if (key === undefined) return [...problems, `Content-Type ${type} is not one of ${documented}`]
    if (!isJson(type)) return problems
    const text = await decodedText(response)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return [...problems, `the ${type} body is not JSON: ${text.slice(0, 200)}`]
    }
    const schema = entry.content?.[key]?.schema
    if (schema) problems.push(...this.#schemaProblems('body', schema, body))
    return problems
  }

  /**
   * Why the document's JSON schema for the request body of `method` `template` refuses `body`:
   * none when it admits it. Throws when the operation has no JSON body.
   * @example contract.requestBodyProblems('post', '/items', { id: 'tt1' })
   */
  requestBodyProblems(method: string, template: string, body: unknown): string[] {
    const content = this.#document.paths?.[template]?.[method]?.requestBody?.content ?? {}
    const schema = Object.entries(content).find(([type]) => isJson(essence(type)))?.[1].schema
    if (!schema) throw new Error(`${method} ${template} has no documented JSON body`)
    return this.#schemaProblems('body', schema, body)
  }

  /** Throws, naming every problem, unless `response` is a response the document gives. */
  async check(request: AskedRequest, response: Response): Promise<void> {
    const problems = await this.problemsOf(request, response)
    if (problems.length === 0) return
    const asked = `${request.method.toUpperCase()} ${request.url} -> ${response.status}`
    throw new Error(`answer not as the OpenAPI document says: ${asked}\n  ${problems.join('\n  ')}`)
  }

  #headerProblems(entry: ResponseEntry, headers: Headers): string[] {
    return Object.entries(entry.headers ?? {}).flatMap(([name, { required, schema }]) => {
      const value = headers.get(name)
      if (value === null) return required ? [`header ${name} is missing`] : []
      if (!schema || name.toLowerCase() === 'content-type') return []
      const numeric = ['integer', 'number'].includes(String(schema.type)) && value.trim() !== ''
      return this.#schemaProblems(`header ${name}`, schema, numeric ? Number(value) : value)
    })
  }

  #schemaProblems(what: string, schema: Schema, value: unknown): string[] {
    let validate = this.#compiled.get(schema)
    if (!validate) {
      validate = this.#ajv.compile(withComponentRefs(schema) as Schema)
      this.#compiled.set(schema, validate)
    }
    if (validate(value)) return []
    return [`${this.#ajv.errorsText(validate.errors, { dataVar: what })}: ${shownValue(value)}`]
  }
}

/**
 * `app`, with every response of its `request` checked against the contract (made on first use):
 * a request whose response the document does not describe rejects, naming what differs.
 * @example const app = checkedAgainst(() => contract, createApp(deps))
 */
export function checkedAgainst<A extends Requestable>(
  contract: () => Promise<OpenApiContract>,
  app: A,
): A {
  const request = async (input: string | URL | Request, init?: RequestInit, ...rest: never[]) => {
    const response = (await app.request(input, init, ...rest)) as Response
    const asked = input instanceof Request ? input : undefined
    await (await contract()).check(
      {
        method: init?.method ?? asked?.method ?? 'GET',
        url: asked?.url ?? String(input),
        headers: new Headers(init?.headers ?? asked?.headers),
      },
      response,
    )
    return response
  }
  return new Proxy(app, {
    get(target, key) {
      if (key === 'request') return request
      const value: unknown = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** A value in a problem's text: its JSON, cut short; a value too deep to serialise is named so. */
function shownValue(value: unknown): string {
  try {
    const json = JSON.stringify(value)
    return json.length > 500 ? `${json.slice(0, 500)}…` : json
  } catch {
    return '(a value nested too deep to show)'
  }
}

/** The response's body as text, decompressed as its `Content-Encoding` says. */
async function decodedText(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.clone().arrayBuffer())
  const encoding = response.headers.get('content-encoding')?.toLowerCase()
  if (encoding === 'br') return brotliDecompressSync(bytes).toString()
  if (encoding === 'gzip') return gunzipSync(bytes).toString()
  return bytes.toString()
}
