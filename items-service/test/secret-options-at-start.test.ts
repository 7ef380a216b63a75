import { afterAll, describe, expect, it } from 'vitest'
import { closedPort, failedStart, temporaryDataDir } from './support/built-service.js'
import { WorkerUnderTest } from './support/worker-under-test.js'

// Each secret a URL may carry, in the places a MongoDB URL carries them. The percent-encoded
// ones must not appear decoded either: the driver decodes before it prints.
const secrets = {
  password: 'pw-NEVER-PRINT-3d9',
  keyFilePassword: 'kfp-NEVER-PRINT-8a1',
  sessionToken: 'tok-NEVER-PRINT-5c7',
  proxyPassword: 'proxy-NEVER-PRINT-2b4',
  encoded: 'enc%40NEVER%2FPRINT-6e0',
}
const decoded = decodeURIComponent(secrets.encoded)
const all = [...Object.values(secrets), decoded, 'NEVER-PRINT', 'NEVER/PRINT']

/** URLs to MongoDB on `port`, where nothing listens, each with secrets in its query. */
const urls = (port: number): [string, string][] => [
  [
    'userinfo, a key file password and an AWS session token',
    `mongodb://reader:${secrets.password}@127.0.0.1:${port}/films?appName=films` +
      `&tlsCertificateKeyFilePassword=${secrets.keyFilePassword}` +
      `&authMechanismProperties=AWS_SESSION_TOKEN:${secrets.sessionToken}`,
  ],
  [
    'percent-encoded secrets',
    `mongodb://reader:${secrets.encoded}@127.0.0.1:${port}/` +
      `?tlsCertificateKeyFilePassword=${secrets.encoded}`,
  ],
  [
    'MONGODB-AWS, which the driver refuses with a session token',
    `mongodb://127.0.0.1:${port}/?authMechanism=MONGODB-AWS` +
      `&authMechanismProperties=AWS_SESSION_TOKEN:${secrets.sessionToken},SERVICE_NAME:mongodb`,
  ],
  [
    'a proxy password',
    `mongodb://127.0.0.1:${port}/?proxyHost=127.0.0.1&proxyPort=${port}` +
      `&proxyUsername=films&proxyPassword=${secrets.proxyPassword}`,
  ],
  [
    'the wrong scheme',
    `postgres://reader:${secrets.password}@db.example/films` +
      `?password=${secrets.proxyPassword}&sslkey=${secrets.keyFilePassword}`,
  ],
]

const expectNoSecret = (printed: string) => {
  for (const secret of all) expect(printed).not.toContain(secret)
}

describe('items-service, on Node, whose CONNECTION_URL fails at start', () => {
  it.each(urls(0))('prints none of its secrets, for %s', async (what) => {
    const url = urls(await closedPort()).find(([name]) => name === what)?.[1] ?? ''
    const service = await failedStart({
      DATA_DIR: await temporaryDataDir(),
      CONNECTION_URL: url,
      CONNECT_TIMEOUT_MS: '1000',
    })
    expect(service.code).toBe(1)
    expect(service.stderr).toMatch(/^items-service cannot start: /)
    expectNoSecret(service.stdout + service.stderr)
  })

  it('still says which server, user and options were meant', async () => {
    const port = await closedPort()
    const url = urls(port)[0]?.[1] ?? ''
    const service = await failedStart({
      DATA_DIR: await temporaryDataDir(),
      CONNECTION_URL: url,
      CONNECT_TIMEOUT_MS: '1000',
    })
    expect(service.stderr).toContain(
      `(database at mongodb://reader:***@127.0.0.1:${port}/films?appName=films` +
        '&tlsCertificateKeyFilePassword=***&authMechanismProperties=***)',
    )
  })
})

describe('items-service, on Workers, whose CONNECTION_URL fails at start', () => {
  const workers: WorkerUnderTest[] = []
  afterAll(() => Promise.all(workers.map((worker) => worker.stop())))

  it.each(urls(0))('prints none of its secrets, for %s', async (what) => {
    const url = urls(await closedPort()).find(([name]) => name === what)?.[1] ?? ''
    const worker = await WorkerUnderTest.start(
      { CONNECTION_URL: url, CONNECT_TIMEOUT_MS: '1000' },
      undefined,
      'mongodb',
    )
    workers.push(worker)
    const response = await worker.request('/items')
    expect(response.status).toBe(503)
    await response.body?.cancel()
    expect(worker.stderr).toContain('items-service cannot start: ')
    expectNoSecret(worker.stdout + worker.stderr)
  })
})
