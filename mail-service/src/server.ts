import type { Server } from 'node:http'
import { serve } from '@hono/node-server'
import { redactText } from '@movies-and-mail/http-kit'
import { closeServer } from '@movies-and-mail/http-kit/node'
import { createApp } from './app.js'
import { parseEnv, secretValues } from './env.js'
import { EmbeddedLogs } from './mail-log/embedded-logs.js'
import { describeSetup, openAdapters } from './stores.js'

async function main(): Promise<void> {
  const settings = parseEnv(process.env)
  // Opened by the first log asked for: not at all when the logs live in a Deta Base.
  const localLogs = new EmbeddedLogs(settings.dataDir)
  const closers: (() => Promise<void>)[] = [() => localLogs.close()]
  const { mailer, mailLog, outbox } = await openAdapters(settings, (name) => localLogs.open(name))
  const apiKeys = settings.apiKeys.length > 0 ? settings.apiKeys : [randomKey()]
  const app = createApp({
    mailer,
    mailLog,
    outbox,
    apiKeys,
    corsOrigins: settings.corsOrigins,
    template: settings.mail,
  })

  const options = { fetch: app.fetch, port: settings.port, hostname: settings.host }
  const server = serve(options, (info) => {
    const host = settings.host === '0.0.0.0' || settings.host === '::' ? 'localhost' : settings.host
    const banner = [
      `mail-service listening on http://${host}:${info.port} (docs at /docs)`,
      ...describeSetup(settings, `embedded store in ${settings.dataDir}`),
    ]
    if (settings.apiKeys.length === 0) {
      banner.push(`API_KEYS is not set; for this run only, x-apikey: ${apiKeys[0]}`)
    }
    // One write, so whoever reads the output sees the banner whole.
    console.log(banner.join('\n'))
  }) as Server
  server.on('error', (error: NodeJS.ErrnoException) => {
    cannotStart(error.code === 'EADDRINUSE' ? `port ${settings.port} is in use` : error)
  })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    const timeoutMs = settings.shutdownTimeoutMs
    console.log(
      `${signal}: finishing requests in flight for at most ${timeoutMs} ms, then stopping`,
    )
    const { cut } = await closeServer(server, timeoutMs)
    // Cutting a request that outlived the deadline is still an orderly stop: the logs close as
    // always, and the line says what was cut.
    if (cut > 0) console.log(`closed ${cut} connection(s) still in flight after ${timeoutMs} ms`)
    await Promise.allSettled(closers.map((close) => close()))
    console.log('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

function randomKey(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url')
}

/** Says why the process cannot start, with no secret of the environment in it, and exits 1. */
function cannotStart(reason: unknown): never {
  const message = reason instanceof Error ? reason.message : String(reason)
  console.error(redactText(`mail-service cannot start: ${message}`, secretValues(process.env)))
  process.exit(1)
}

main().catch(cannotStart)
