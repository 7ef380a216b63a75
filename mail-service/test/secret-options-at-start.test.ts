import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closedPortUrl, killBuiltEntries } from '@movies-and-mail/test-kit'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, failedStart, startServer } from './support/run-server.js'
import { bindings, workerForThisTest } from './support/worker-under-test.js'

// Each secret a URL may carry; the percent-encoded one must not appear decoded either.
const secrets = {
  password: 'pw-NEVER-PRINT-9b3',
  keyFilePassword: 'kfp-NEVER-PRINT-1f6',
  sessionToken: 'tok-NEVER-PRINT-7a2',
  encoded: 'enc%40NEVER%2FPRINT-4d8',
  apiToken: 'api-NEVER-PRINT-3c5',
}
const all = [...Object.values(secrets), decodeURIComponent(secrets.encoded), 'NEVER-PRINT']
const expectNoSecret = (printed: string) => {
  for (const secret of all) expect(printed).not.toContain(secret)
}

/** A MongoDB URL with secrets in its userinfo and its query. */
const mongoUrl = (host: string) =>
  `mongodb://mail:${secrets.password}@${host}/?appName=mail` +
  `&tlsCertificateKeyFilePassword=${secrets.encoded}` +
  `&authMechanismProperties=AWS_SESSION_TOKEN:${secrets.sessionToken}`

/** Settings that stop a start, each with secrets in a URL. */
const refused: [string, Record<string, string>][] = [
  [
    'MAIL_CONNECTION_URL of the wrong scheme',
    { MAIL_CONNECTION_URL: `postgres${mongoUrl('db').slice(7)}` },
  ],
  [
    'MAIL_API_URL of the wrong scheme',
    {
      MAIL_API_URL: `ftp://mail.example/v3?api_key=${secrets.apiToken}&token=${secrets.sessionToken}`,
    },
  ],
]

let dataDir: string
beforeAll(async () => {
  ensureBuilt()
  dataDir = await mkdtemp(join(tmpdir(), 'mail-service-secret-options-'))
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))
afterEach(killBuiltEntries)

describe('mail-service, on Node, prints no secret of a URL', () => {
  it('when MAIL_CONNECTION_URL names a database where nothing listens', async () => {
    const { host } = new URL(await closedPortUrl())
    const failed = await failedStart({
      DATA_DIR: dataDir,
      MAIL_CONNECTION_URL: mongoUrl(host),
      MAIL_TIMEOUT_MS: '1000',
    })
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain(`mail-service cannot start: `)
    expect(failed.stderr).toContain(`(MongoDB at ${host}, database data)`)
    expectNoSecret(failed.output)
  })

  it.each(refused)('when %s stops the start, naming it', async (_, env) => {
    const failed = await failedStart({ DATA_DIR: dataDir, ...env })
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(new RegExp(`${Object.keys(env)[0]}=".*\\*\\*\\*`))
    expectNoSecret(failed.output)
  })

  it('in its banner, for a MAIL_API_URL with a token in its query', async () => {
    const service = await startServer({
      DATA_DIR: dataDir,
      API_KEYS: 'a-key-of-the-test',
      MAIL_APIKEY: 'key-1',
      MAIL_DOMAIN: 'mg.example.com',
      MAIL_API_URL: `https://mailgun.example/v3?api_key=${secrets.apiToken}`,
    })
    expect(service.output).toContain('transport: Mailgun at https://mailgun.example/v3?api_key=***')
    expectNoSecret(service.output)
  })
})

describe('mail-service, on Workers, prints no secret of a URL', () => {
  it.each(refused)('when %s stops the start', async (_, env) => {
    let output = ''
    const broken = workerForThisTest(
      { ...bindings, ...env },
      { onOutput: (text) => (output += text) },
    )
    const response = await broken.dispatchFetch('http://worker.test/healthz')
    expect(response.status).toBe(503)
    await response.text()
    expect(output).toContain('mail-service cannot start: invalid settings')
    expectNoSecret(output)
  })

  it('in its start-up lines, for a MAIL_API_URL with a token in its query', async () => {
    let output = ''
    const worker = workerForThisTest(
      { ...bindings, MAIL_API_URL: `https://mailgun.example/v3?api_key=${secrets.apiToken}` },
      { onOutput: (text) => (output += text) },
    )
    const response = await worker.dispatchFetch('http://worker.test/healthz')
    await response.text()
    expect(output).toContain('transport: Mailgun at https://mailgun.example/v3?api_key=***')
    expectNoSecret(output)
  })
})
