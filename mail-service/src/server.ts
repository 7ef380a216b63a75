import type { Server } from 'node:http'
import { serve } from '@hono/node-server'
import { createApp } from './app.js'
import { parseEnv } from './env.js'
import { EmbeddedMailLog } from './mail-log/embedded-mail-log.js'
import { describeSetup, openAdapters } from './stores.js'

const shutdownGraceMs = 10_000

async function main(): Promise<void> {
  const settings = parseEnv(process.env)
  const closers: (() => Promise<void>)[] = []
  const { mailer, mailLog, outbox } = await openAdapters(
    settings,
    async <T extends object>(name: string) => {
      const log = await EmbeddedMailLog.open<T>(settings.dataDir, name)
      closers.push(() => log.close())
      return log
    },
  )
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
    const reason = error.code === 'EADDRINUSE' ? `port ${settings.port} is in use` : error.message
    console.error(`mail-service cannot start: ${reason}`)
    process.exit(1)
  })

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: finishing requests in flight, then stopping`)
    const force = setTimeout(() => server.closeAllConnections(), shutdownGraceMs)
    const idle = setInterval(() => server.closeIdleConnections(), 100)
    server.close(async () => {
      clearTimeout(force)
      clearInterval(idle)
      await Promise.allSettled(closers.map((close) => close()))
      console.log('stopped')
      process.exit(0)
    })
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

function randomKey(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url')
}

main().catch((error: unknown) => {
  console.error(`mail-service cannot start: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})
