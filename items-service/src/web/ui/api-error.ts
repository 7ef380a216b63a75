type ErrorBody = { error?: unknown; issues?: { path?: unknown; message?: unknown }[] }

/**
 * A sentence for a failed response: the server's `error`, followed by each validation issue
 * as "field: message", or the status when the body says nothing.
 */
export async function describeFailure(response: Response): Promise<string> {
  let body: ErrorBody = {}
  try {
    body = (await response.json()) as ErrorBody
  } catch {
    // Not JSON (a proxy's HTML page, say): the status line is all there is.
  }
  const error =
    typeof body.error === 'string' ? body.error : `${response.status} ${response.statusText}`
  const issues = (body.issues ?? []).map((issue) =>
    issue.path ? `${String(issue.path)}: ${String(issue.message)}` : String(issue.message),
  )
  return issues.length > 0 ? `${error} (${issues.join('; ')})` : error
}

/** A sentence for a request that got no response at all. */
export function describeNetworkError(error: unknown, service: string): string {
  const reason = error instanceof Error ? error.message : String(error)
  return `could not reach the ${service} (${reason})`
}
