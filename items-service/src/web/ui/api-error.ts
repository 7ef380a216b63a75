type ErrorBody = { error?: unknown; issues?: { path?: unknown; message?: unknown }[] }

/** Why a write failed: a sentence for the form, and a plain message per field it names. */
export type Failure = { message: string; fields: Record<string, string> }

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
 * Reads a failed response: issues on a field the form has become that field's message; the
 * server's `error` and any other issue make the sentence (the status when the body is not JSON).
 */
export async function readFailure(
  response: Response,
  formFields: readonly string[] = [],
): Promise<Failure> {
  let body: ErrorBody = {}
  try {
    body = (await response.json()) as ErrorBody
  } catch {
    // Not JSON (a proxy's HTML page, say): the status line is all there is.
  }
  const error =
    typeof body.error === 'string' ? body.error : `${response.status} ${response.statusText}`
  const fields: Record<string, string> = {}
  const others: string[] = []
  for (const issue of body.issues ?? []) {
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

/** A sentence for a failed response: the server's `error` and its issues as "field: message". */
export async function describeFailure(response: Response): Promise<string> {
  return (await readFailure(response)).message
}

/** A sentence for a request that got no response at all. */
export function describeNetworkError(error: unknown, service: string): string {
  const reason = error instanceof Error ? error.message : String(error)
  return `could not reach the ${service} (${reason})`
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
