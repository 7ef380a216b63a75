import { OpenAPIHono } from '@hono/zod-openapi'
import { redactText } from '@movies-and-mail/http-kit'
import { docsRoute, openApiRoute } from './docs/docs.routes.js'
import { docsPage, docsStyle } from './docs/docs-page.js'
import { healthApp } from './health/health.app.js'
import { requireApiKey } from './http/api-key.js'
import { cors } from './http/cors.js'
import { errorHandler, notFound, validationHook } from './http/errors.js'
import { requestLog } from './http/request-log.js'
import { htmlHeaders, noSniff } from './http/security-headers.js'
import type { MailLog } from './mail-log/mail-log.js'
import type { Mailer, MailTemplate } from './mailer/mailer.js'
import type { OutboxMailer } from './mailer/outbox-mailer.js'
import { recordsApp } from './records/records.app.js'
import type { RecordSendOptions } from './sendmail/record-send.js'
import { sendMailApp } from './sendmail/sendmail.app.js'

export type AppDeps = {
  mailer: Mailer
  mailLog: MailLog
  /** The outbox, when it is the transport: serves `GET /outbox`. */
  outbox?: OutboxMailer
  /** Accepted `x-apikey` values; with none, every call that needs a key is refused. */
  apiKeys: readonly string[]
  /** `['*']` or the exact origins a browser may call from. */
  corsOrigins: readonly string[]
  template: MailTemplate
  /** One line per request goes here. */
  log?: (line: string) => void
  /** Failures the client cannot see in full go here. */
  logError?: (line: string) => void
  retry?: Omit<RecordSendOptions, 'logError'>
  maxBodyBytes?: number
}

/**
 * The whole mail service as a Hono app: routes, middleware and the OpenAPI document, with
 * every adapter handed in. Reads no environment and does no I/O until a request comes.
 * @example const app = createApp({ mailer, mailLog, apiKeys: ['k'], corsOrigins: ['*'], template })
 */
export function createApp({
  mailer,
  mailLog,
  outbox,
  apiKeys,
  corsOrigins,
  template,
  log = console.log,
  logError: writeError = console.error,
  retry,
  maxBodyBytes,
}: AppDeps) {
  // An error line may quote a library's message, and with it a URL that holds a password.
  const logError = (line: string) => writeError(redactText(line))
  const app = new OpenAPIHono({ defaultHook: validationHook })
  const auth = requireApiKey(apiKeys)
  app.use(...requestLog(log), noSniff(), cors({ origins: corsOrigins }))
  app.onError(errorHandler(logError))
  app.notFound(notFound)

  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-apikey',
  })
  app.route('/', healthApp({ stores: outbox ? [mailLog, outbox] : [mailLog], logError }))
  app.route(
    '/',
    sendMailApp({ mailer, mailLog, template, requireApiKey: auth, retry, maxBodyBytes, logError }),
  )
  app.route('/', recordsApp({ mailLog, outbox, requireApiKey: auth, logError }))

  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined
  const openApiDocument = () => {
    document ??= app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'Mail service',
        version: '1.0.0',
        description: 'Sends a fixed greeting through Mailgun and logs every send.',
      },
    })
    return document
  }
  app.openapi(openApiRoute, (c) => c.json(openApiDocument(), 200))
  // The page's one inline block is its stylesheet, allowed by hash; it has no script.
  const docsHeaders = htmlHeaders({ inlineStyles: [docsStyle] })
  app.openapi(docsRoute, async (c) => c.html(docsPage(openApiDocument()), 200, await docsHeaders))
  return app
}

export type MailApp = ReturnType<typeof createApp>
