import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import type { z } from '@hono/zod-openapi'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type { mailLogRecordSchema } from '../mail-service/src/records/records.routes.js'
import type {
  providerAnswerSchema,
  sendMailBodySchema,
} from '../mail-service/src/sendmail/sendmail.schema.js'
import {
  createMailClient,
  type Fetch,
  MailApiError,
  type MailClient,
  type MailLogRecord,
  type ProviderAnswer,
  type SendMailRequest,
} from '../packages/mail-client/src/index.js'
import { type MicroProcess, startMicro } from './support/micro-process.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../', import.meta.url))
const clientDir = join(root, 'packages/mail-client')
const example = await readFile(join(clientDir, 'example.ts'), 'utf8')
/** What the example calls; the test points it at a live service started with its key. */
const exampleUrl = 'http://localhost:4001'
const exampleKey = 'my-key'

const registryProblem = await pingRegistry()
if (registryProblem) {
  console.log(`mail-client test skipped: the npm registry is unreachable (${registryProblem})`)
}

async function pingRegistry(): Promise<string | undefined> {
  try {
    await run('npm', ['ping', '--fetch-retries=0'], { timeout: 30_000 })
    return undefined
  } catch (error) {
    const { stderr = '', killed } = error as { stderr?: string; killed?: boolean }
    if (killed) return '`npm ping` had no answer in 30 s'
    const reason =
      /request to \S+ failed, reason: .*/.exec(stderr) ?? /npm error code \S+/.exec(stderr)
    return reason?.[0] ?? String(error)
  }
}

/** What the example prints against a fresh service, line by line. */
const exampleOutput = [
  'sent: Queued. Thank you.',
  'sent once: Queued. Thank you. (2 answers, the first lost)',
  'refused: 400 invalid request body (email: must be exactly one email address, like ada@example.com)',
  'log: grace@example.com, ada@example.com',
]

/** The messages a mail-service in outbox mode kept, newest first. */
async function outbox(url: string, apiKey: string): Promise<{ to: string }[]> {
  const response = await fetch(`${url}/outbox?limit=1000`, { headers: { 'x-apikey': apiKey } })
  expect(response.status).toBe(200)
  return (await response.json()) as { to: string }[]
}

it('the client’s README quotes the example as it is in example.ts, and what it prints', async () => {
  const readme = await readFile(join(clientDir, 'README.md'), 'utf8')
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``)
  expect(readme).toContain(`\`\`\`text\n${exampleOutput.join('\n')}\n\`\`\``)
})

it('the client’s README says what the built client weighs, bundled, minified and gzipped', async () => {
  await run('npm', ['run', 'build', '-w', '@movies-and-mail/mail-client'], { cwd: root })
  const readme = await readFile(join(clientDir, 'README.md'), 'utf8')
  const [, stated = ''] = /([\d.]+) KB minified and gzipped/.exec(readme) ?? []
  const { outputFiles } = await build({
    entryPoints: [join(clientDir, 'dist/index.js')],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
  })
  const bytes = gzipSync(outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length
  expect(Math.abs(Number(stated) - bytes / 1000)).toBeLessThanOrEqual(0.1)
})

// The client declares the API's types by hand, so that its declarations need nothing of the
// service; `npm run typecheck` holds them to the schemas the routes validate with.
it('takes and answers what the service’s schemas say', () => {
  expectTypeOf<SendMailRequest>().toEqualTypeOf<z.infer<typeof sendMailBodySchema>>()
  expectTypeOf<Parameters<MailClient['send']>[0]>().toEqualTypeOf<SendMailRequest>()
  expectTypeOf<ProviderAnswer>().toEqualTypeOf<z.infer<typeof providerAnswerSchema>>()
  expectTypeOf<Awaited<ReturnType<MailClient['send']>>>().toEqualTypeOf<ProviderAnswer>()
  // The log may grow fields (the service decides what a record holds): the client's are in it.
  expectTypeOf<z.infer<typeof mailLogRecordSchema>>().toExtend<MailLogRecord>()
})

// The client, from its sources, against the built service in outbox mode.
describe('@movies-and-mail/mail-client against the built mail-service', () => {
  const apiKey = 'client-test-key'
  let service: MicroProcess | undefined
  const url = () => service?.url ?? ''

  beforeAll(async () => {
    if (!existsSync(join(root, 'mail-service/dist/server.js'))) {
      await run('npm', ['run', 'build', '-w', 'mail-service'], { cwd: root })
    }
    service = await startMicro('mail-service', {
      API_KEYS: apiKey,
      MAIL_TRANSPORT: 'outbox',
      RATE_LIMIT_PER_RECIPIENT: '1/1h',
    })
  })
  afterAll(() => service?.stop())

  it('sends once a mail whose answer was lost, and resolves to its answer', async () => {
    const lost: string[] = []
    const lossy: Fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (lost.length > 0) return response
      lost.push(`${response.status} ${await response.text()}`)
      throw new TypeError('fetch failed: other side closed')
    }
    const mail = createMailClient(url(), { apiKey, fetch: lossy })
    const answer = await mail.send({ email: 'lost@example.com', name: 'Lost' })
    expect(lost).toEqual([`201 ${JSON.stringify(answer)}`])
    expect(answer).toEqual({
      id: expect.stringMatching(/@outbox\.local>$/),
      message: expect.any(String),
    })
    const kept = (await outbox(url(), apiKey)).filter(({ to }) => to === 'lost@example.com')
    expect(kept).toHaveLength(1)
    const { records } = await mail.log({ limit: 10 })
    expect(records.filter(({ email }) => email === 'lost@example.com')).toHaveLength(1)
  })

  it('rejects at once with the 429 whose Retry-After is past what the caller would wait', async () => {
    const mail = createMailClient(url(), { apiKey })
    const ada = { email: 'ada@example.com', name: 'Ada' }
    await mail.send(ada)
    const started = Date.now()
    const error = await mail.send(ada).then(
      () => expect.unreachable('the rate limit was expected to refuse'),
      (caught: unknown) => caught,
    )
    expect(Date.now() - started).toBeLessThan(1000)
    expect(error).toBeInstanceOf(MailApiError)
    expect(error).toMatchObject({
      status: 429,
      body: { error: expect.stringContaining('too many sends for this recipient') },
      retryAfterMs: expect.any(Number),
    })
    expect((error as MailApiError).retryAfterMs).toBeGreaterThan(30_000)
    const kept = (await outbox(url(), apiKey)).filter(({ to }) => to === 'ada@example.com')
    expect(kept).toHaveLength(1)
  })

  it('does not retry a wrong key', async () => {
    const tries: string[] = []
    const counting: Fetch = (input, init) => {
      tries.push(input)
      return fetch(input, init)
    }
    const mail = createMailClient(url(), { apiKey: 'wrong', fetch: counting })
    await expect(mail.send({ email: 'eve@example.com', name: 'Eve' })).rejects.toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
    expect(tries).toHaveLength(1)
  })
})

// What a user does: pack the client, install the tarball into a project of their own (strict,
// no Node types; or Node's types, or the Workers', and no DOM), type-check the example its
// README quotes, run it with plain node against the service.
describe.skipIf(registryProblem !== undefined)('@movies-and-mail/mail-client, packed', () => {
  let dir = ''
  let packed: string[] = []
  let service: MicroProcess | undefined
  const inConsumer = (...path: string[]) => join(dir, ...path)
  const tsc = (...args: string[]) =>
    run(process.execPath, [inConsumer('node_modules/typescript/bin/tsc'), ...args], { cwd: dir })
  const versionOf = async (name: string) => {
    const manifest = await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')
    return `${name}@${(JSON.parse(manifest) as { version: string }).version}`
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mail-client-consumer-'))
    // `npm pack` builds the client first (its prepack script), as `npm publish` does.
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: clientDir,
    })
    const [tarball] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[]
    if (!tarball) throw new Error(`npm pack printed no tarball: ${stdout}`)
    packed = tarball.files.map((file) => file.path)

    if (!existsSync(join(root, 'mail-service/dist/server.js'))) {
      await run('npm', ['run', 'build', '-w', 'mail-service'], { cwd: root })
    }
    service = await startMicro('mail-service', {
      API_KEYS: exampleKey,
      MAIL_TRANSPORT: 'outbox',
    })
    await writeConsumerProject(dir, service.url)

    const types = await Promise.all(
      ['typescript', '@types/node', '@cloudflare/workers-types'].map(versionOf),
    )
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', `./${tarball.filename}`, ...types],
      { cwd: dir, timeout: 240_000 },
    )
  }, 300_000)

  afterAll(async () => {
    await service?.stop()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('packs the build alone: no sources, no tests', () => {
    expect(packed).toContain('dist/index.js')
    expect(packed).toContain('dist/index.d.ts')
    for (const path of packed) {
      const documents = ['package.json', 'README.md', 'LICENSE']
      expect(documents.includes(path) || path.startsWith('dist/'), path).toBe(true)
      expect(path).not.toMatch(/(^|\/)src\/|\.test\./)
      if (path.endsWith('.ts')) expect(path).toMatch(/\.d\.ts$/)
    }
  })

  it('is publishable and installs nothing but itself', async () => {
    const manifest = JSON.parse(
      await readFile(inConsumer('node_modules/@movies-and-mail/mail-client/package.json'), 'utf8'),
    ) as Record<string, unknown>
    expect(manifest).toMatchObject({
      license: 'MIT',
      type: 'module',
      sideEffects: false,
      types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      engines: { node: expect.any(String) },
    })
    expect(manifest.private).toBeUndefined()
    expect(manifest.dependencies).toBeUndefined()
    expect(await readdir(inConsumer('node_modules/@movies-and-mail'))).toEqual(['mail-client'])
  })

  it('declares its API in files of its own, referencing no other package', async () => {
    const dist = inConsumer('node_modules/@movies-and-mail/mail-client/dist')
    const declarations = (await readdir(dist)).filter((name) => name.endsWith('.d.ts'))
    for (const name of declarations) {
      const text = await readFile(join(dist, name), 'utf8')
      expect(text, name).not.toContain('/// <reference')
      for (const [, specifier] of text.matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
        expect(specifier, `${name} imports ${specifier}`).toMatch(/^\.\//)
      }
    }
  })

  it('type-checks the example under strict: with the DOM and no other types', async () => {
    await tsc('--noEmit', '-p', 'tsconfig.json')
    await tsc('--noEmit', '-p', 'tsconfig.bundler.json')
  })

  it('type-checks the example under strict in a back end: Node’s types, or the Workers’', async () => {
    await tsc('--noEmit', '-p', 'tsconfig.node.json')
    await tsc('--noEmit', '-p', 'tsconfig.workers.json')
  })

  it('runs the compiled example with plain node against a live mail-service', async () => {
    await tsc('-p', 'tsconfig.json')
    const { stdout } = await run(process.execPath, ['out/example.js'], {
      cwd: dir,
      timeout: 30_000,
    })
    expect(stdout.split('\n')).toEqual([...exampleOutput, ''])
    // The send whose answer was lost is in the outbox once.
    const sent = (await outbox(service?.url ?? '', exampleKey)).map(({ to }) => to)
    expect(sent).toEqual(['grace@example.com', 'ada@example.com'])
  })
})

/** A project of a user's: ESM, strict, the example in it, and one tsconfig per kind of project. */
async function writeConsumerProject(dir: string, serviceUrl: string): Promise<void> {
  const strict = { strict: true, target: 'ES2022', noEmit: true }
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
  const project = (compilerOptions: object) => json({ compilerOptions, files: ['example.ts'] })
  const nodeNext = { module: 'nodenext', moduleResolution: 'nodenext' }
  const files: Record<string, string> = {
    'package.json': json({ name: 'mail-client-consumer', private: true, type: 'module' }),
    'tsconfig.json': project({
      ...strict,
      ...nodeNext,
      types: [],
      lib: ['ES2022', 'DOM'],
      noEmit: false,
      outDir: 'out',
    }),
    'tsconfig.bundler.json': project({
      ...strict,
      module: 'esnext',
      moduleResolution: 'bundler',
      types: [],
      lib: ['ES2022', 'DOM'],
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
    }),
    'tsconfig.node.json': project({ ...strict, ...nodeNext, types: ['node'], lib: ['ES2022'] }),
    'tsconfig.workers.json': project({
      ...strict,
      module: 'esnext',
      moduleResolution: 'bundler',
      types: ['@cloudflare/workers-types'],
      lib: ['ES2022'],
      exactOptionalPropertyTypes: true,
    }),
    'example.ts': pointedAt(serviceUrl, example),
  }
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text)
}

/** The example with the live service's URL in place of the one it shows. */
function pointedAt(serviceUrl: string, text: string): string {
  const parts = text.split(`'${exampleUrl}'`)
  if (parts.length !== 2) throw new Error(`the example should call '${exampleUrl}' exactly once`)
  return parts.join(`'${serviceUrl}'`)
}
