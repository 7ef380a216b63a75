import { htmlHeaders } from '@movies-and-mail/http-kit/page'
import type { Context } from 'hono'
import { renderAppPage } from './page.js'

/**
 * The response to `GET /`: the web app's page, with a Content-Security-Policy that admits only its
 * own files and calls to its origin and the mail service. The page's route on Node
 * (`webRoutes`) and the Worker's own response (`webPage`) both give this one.
 */
export function pageHandler({ mailServiceUrl }: { mailServiceUrl: string }) {
  const page = renderAppPage({ mailServiceUrl })
  // The page's script calls this origin's /items and the mail service, nothing else.
  const headers = htmlHeaders({ connectTo: [mailServiceUrl] })
  return (c: Context) => c.html(page, 200, headers)
}
