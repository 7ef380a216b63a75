import { htmlHeaders } from '@movies-and-mail/http-kit/page'
import type { Context } from 'hono'
import { type PageSignIn, renderAppPage } from './page.js'

/**
 * The response to `GET /`: the web app's page, with a Content-Security-Policy that admits only its
 * own files and calls to its origin, the mail service and, with `signIn`, the issuer. The page's
 * route on Node (`webRoutes`) and the Worker's own response (`webPage`) both give this one.
 */
export function pageHandler({
  mailServiceUrl,
  signIn,
}: {
  mailServiceUrl: string
  signIn?: PageSignIn | undefined
}) {
  const page = renderAppPage({ mailServiceUrl, signIn })
  // The page's script calls this origin's /items, the mail service and the issuer (its discovery
  // document and token endpoint: sign-in itself is a navigation, which connect-src does not
  // govern), nothing else.
  const headers = htmlHeaders({
    connectTo: signIn ? [mailServiceUrl, signIn.issuer] : [mailServiceUrl],
  })
  return (c: Context) => c.html(page, 200, headers)
}
