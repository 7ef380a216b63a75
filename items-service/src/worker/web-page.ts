import { createPlainServiceApp } from '@movies-and-mail/http-kit/page'
import { redactText } from '@movies-and-mail/http-kit/redact'
import { analyticsDatasetOf, workerAppLog } from '@movies-and-mail/http-kit/workers-monitoring'
import { parseEnv, secretValues } from '../env.js'
import { pageSignInOf } from '../web/page.js'
import { pageHandler } from '../web/page-handler.js'
import { settingsOf } from './items-object.js'

type Fetch = (request: Request) => Response | Promise<Response>

/**
 * The web app's page at `/`, answered by the Worker: the page names the mail service, a setting
 * (`MAIL_SERVICE_URL`, and the sign-in's issuer), in its markup and in its Content-Security-Policy, so it cannot be a
 * static asset, and it needs nothing of the collection's object. The same response and middleware
 * as on Node (`pageHandler`; `createPlainServiceApp`, the service app's middleware without its
 * routes): the same bytes and headers, one log line; an isolate that starts for a page view
 * evaluates none of the routes' declarations and schemas. Its script, styles and
 * icon are static assets. None when the settings do not parse: the app then answers, 503,
 * and its log names the setting.
 */
export function webPage(bindings: Record<string, unknown>): Fetch | undefined {
  const settings = settingsOf(bindings)
  let parsed: ReturnType<typeof parseEnv>
  try {
    parsed = parseEnv(settings)
  } catch {
    return undefined
  }
  const secrets = secretValues(settings)
  const app = createPlainServiceApp({
    ...workerAppLog({ secrets, analytics: analyticsDatasetOf(bindings) }),
    logError: (line) => console.error(redactText(line.trimEnd(), secrets)),
    corsOrigins: parsed.corsOrigins,
    apiKeys: parsed.apiKey === undefined ? [] : [parsed.apiKey],
  })
  const signIn = pageSignInOf(parsed.users)
  app.get('/', pageHandler({ mailServiceUrl: parsed.mailServiceUrl, signIn }))
  return (request) => app.fetch(request)
}
