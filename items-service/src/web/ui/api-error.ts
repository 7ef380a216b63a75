import { type ErrorBody, ItemsApiError } from './items-api.js'

/** Why a request failed: a sentence for the form, and a plain message per field it names. */
export type Failure = { message: string; fields: Record<string, string> }

/**
 * A refusal the page words itself (a change made elsewhere, the mail key, an error response of the
 * mail-service): what a form's request rejects with when the message is already known.
 */
export class Refusal extends Error {
  override readonly name = 'Refusal'
  readonly failure: Failure

  constructor(failure: Failure | string) {
    const known = typeof failure === 'string' ? { message: failure, fields: {} } : failure
    super(known.message)
    this.failure = known
  }
}

const fieldNames: Record<string, string> = { id: 'Id', name: 'Name', genre: 'Genre' }

/**
 * A validation message in plain words, starting with the field's name: zod's "Too small:
 * expected string to have >=1 characters" for `name` becomes "Name must not be empty".
 */
export function plainIssue(field: string, message: string): string {
  const label = fieldNames[field] ?? field
  const tooBig = /^Too big: expected string to have <=(\d+) characters?$/.exec(message)
  if (tooBig) return `${label} must be at most ${tooBig[1]} characters`
  const tooSmall = /^Too small: expected string to have >=(\d+) characters?$/.exec(message)
  if (tooSmall) {
    return tooSmall[1] === '1'
      ? `${label} must not be empty`
      : `${label} must have at least ${tooSmall[1]} characters`
  }
  if (/^Invalid input: expected string, received undefined$/.test(message)) {
    return `${label} is required`
  }
  if (/^Invalid input: expected string/.test(message)) return `${label} must be text`
  return `${label} ${message}`
}

/**
 * What the page says of a failed request, wherever it failed: the one place where errors become
 * messages. An error response of the items-service (`ItemsApiError`, an id the client would not
 * send included) gives its `error`, its issues on the form's fields at those fields and the
 * others in the sentence; a `Refusal` its own words; anything else means no answer at all.
 * @param service the service's name, for the message when it cannot be reached
 * @param formFields the fields of the form, where issues on them are shown
 */
export function failureOf(
  error: unknown,
  service: string,
  formFields: readonly string[] = [],
): Failure {
  if (error instanceof Refusal) return error.failure
  if (error instanceof ItemsApiError) return bodyFailure(error.body, formFields)
  const reason = error instanceof Error ? error.message : String(error)
  return { message: `could not reach the ${service} (${reason})`, fields: {} }
}

/**
 * Reads an error response the page fetched itself (the mail-service's), whose body has the shape of
 * the items-service's: the status line stands in for a body that is not JSON.
 */
export async function readFailure(
  response: Response,
  formFields: readonly string[] = [],
): Promise<Failure> {
  let body: Partial<ErrorBody> = {}
  try {
    body = (await response.json()) as Partial<ErrorBody>
  } catch {
    // Not JSON (a proxy's HTML page, say): the status line is all there is.
  }
  const error =
    typeof body.error === 'string' ? body.error : `${response.status} ${response.statusText}`
  const issues = Array.isArray(body.issues) ? body.issues : []
  return bodyFailure({ error: error.trim(), issues }, formFields)
}

function bodyFailure({ error, issues = [] }: ErrorBody, formFields: readonly string[]): Failure {
  const fields: Record<string, string> = {}
  const others: string[] = []
  for (const issue of issues) {
    const path = issue.path ? String(issue.path) : ''
    const message = String(issue.message)
    if (formFields.includes(path)) fields[path] ??= plainIssue(path, message)
    else others.push(path ? `${path}: ${message}` : message)
  }
  if (Object.keys(fields).length > 0 && others.length === 0) {
    return { message: 'Please correct the marked fields.', fields }
  }
  return { message: others.length > 0 ? `${error} (${others.join('; ')})` : error, fields }
}

/** Client-side check of required text fields: "<Field> must not be empty" for blank ones. */
export function blankFields(values: Record<string, string>): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(values)) {
    if (value.trim() === '')
      fields[name] = plainIssue(name, 'Too small: expected string to have >=1 characters')
  }
  return fields
}
