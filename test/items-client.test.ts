import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MicroProcess, startMicro } from './support/micro-process.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../', import.meta.url))
const clientDir = join(root, 'packages/items-client')
const example = await readFile(join(clientDir, 'example.ts'), 'utf8')
/** What the example calls; the test points it at a live service started with its key. */
const exampleUrl = 'http://localhost:4000'
const exampleKey = 'my-items-key'

const registryProblem = await pingRegistry()
if (registryProblem) {
  console.log(`items-client test skipped: the npm registry is unreachable (${registryProblem})`)
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
  'created: tt0111161, tt0068646, Amélie 2001',
  'read: Amélie / Comedy',
  'updated: Romance',
  "refused: 412 item 'Amélie 2001' does not match If-Match",
  'all: Amélie, The Godfather, The Shawshank Redemption',
  'crime (1): The Godfather, 1972',
  'crime (2): The Godfather, 1972',
  'event: updated tt0111161 Crime',
]

it('the client’s README quotes the example as it is in example.ts, and what it prints', async () => {
  const readme = await readFile(join(clientDir, 'README.md'), 'utf8')
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``)
  expect(readme).toContain(`\`\`\`text\n${exampleOutput.join('\n')}\n\`\`\``)
})

it('the client’s README says what the built client weighs, bundled, minified and gzipped', async () => {
  await run('npm', ['run', 'build', '-w', '@movies-and-mail/items-client'], { cwd: root })
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

// What a user does: pack the client, install the tarball into a project of their own (strict,
// no Node types), type-check the example its README quotes, run it with plain node against the
// service.
describe.skipIf(registryProblem !== undefined)('@movies-and-mail/items-client, packed', () => {
  let dir = ''
  let packed: string[] = []
  let service: MicroProcess | undefined
  const inConsumer = (...path: string[]) => join(dir, ...path)
  const tsc = (...args: string[]) =>
    run(process.execPath, [inConsumer('node_modules/typescript/bin/tsc'), ...args], { cwd: dir })

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'items-client-consumer-'))
    // `npm pack` builds the client first (its prepack script), as `npm publish` does.
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: clientDir,
    })
    const [tarball] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[]
    if (!tarball) throw new Error(`npm pack printed no tarball: ${stdout}`)
    packed = tarball.files.map((file) => file.path)

    if (!existsSync(join(root, 'items-service/dist/server.js'))) {
      await run('npm', ['run', 'build', '-w', 'items-service'], { cwd: root })
    }
    service = await startMicro('items-service', { ITEMS_APIKEY: exampleKey })
    await writeConsumerProject(dir, service.url)

    const typescript = JSON.parse(
      await readFile(join(root, 'node_modules/typescript/package.json'), 'utf8'),
    ) as { version: string }
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        `./${tarball.filename}`,
        `typescript@${typescript.version}`,
      ],
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

  it('installs nothing but itself: no mongodb, no dependency at all', async () => {
    const installed = JSON.parse(
      await readFile(inConsumer('node_modules/@movies-and-mail/items-client/package.json'), 'utf8'),
    ) as { dependencies?: object }
    expect(installed.dependencies).toBeUndefined()
    expect(existsSync(inConsumer('node_modules/mongodb'))).toBe(false)
    const packages = (await readdir(inConsumer('node_modules'))).filter(
      (name) => !name.startsWith('.'),
    )
    expect(packages.sort()).toEqual(['@movies-and-mail', 'typescript'])
  })

  it('declares its API in files of its own, referencing no other package', async () => {
    const dist = inConsumer('node_modules/@movies-and-mail/items-client/dist')
    const declarations = (await readdir(dist)).filter((name) => name.endsWith('.d.ts'))
    for (const name of declarations) {
      const text = await readFile(join(dist, name), 'utf8')
      expect(text, name).not.toContain('/// <reference')
      for (const [, specifier] of text.matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
        expect(specifier, `${name} imports ${specifier}`).toMatch(/^\.\//)
      }
    }
  })

  it('type-checks the example under strict, with no types but the language and the DOM', async () => {
    await tsc('--noEmit', '-p', 'tsconfig.json')
    await tsc('--noEmit', '-p', 'tsconfig.bundler.json')
  })

  it('is publishable: not private, MIT, ESM with its types, no side effects', async () => {
    const manifest = JSON.parse(
      await readFile(inConsumer('node_modules/@movies-and-mail/items-client/package.json'), 'utf8'),
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
  })

  it('types custom fields and refuses an update with no field, at compile time', async () => {
    // types.ts holds what must compile, and what must not as @ts-expect-error lines.
    await tsc('--noEmit', '-p', 'tsconfig.types.json')
    const refused = await tsc('--noEmit', '-p', 'tsconfig.empty-update.json').then(
      () => expect.unreachable('update(id, {}) compiled'),
      (error: { stdout: string }) => error.stdout,
    )
    expect(refused).toContain("'update needs at least one field'")
    expect(refused.match(/error TS/g)).toHaveLength(1)
  })

  it('runs the compiled example with plain node against a live items-service', async () => {
    await tsc('-p', 'tsconfig.json')
    const { stdout } = await run(process.execPath, ['out/example.js'], {
      cwd: dir,
      timeout: 30_000,
    })
    expect(stdout.split('\n')).toEqual([...exampleOutput, ''])
    // The second read of the same query was a 304: the service sent no list, the client
    // answered the one it kept.
    const reads = service?.entry.output.match(/ GET \/items (200|304) /g) ?? []
    expect(reads.filter((line) => line.includes('304'))).toHaveLength(1)
  })

  it('refuses an id no URL can carry with an ItemsApiError, before any request', async () => {
    const { stdout } = await run(process.execPath, ['unsendable-ids.mjs'], {
      cwd: dir,
      timeout: 30_000,
    })
    const refusals = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(refusals).toEqual(
      ['..', '\ud800'].map((id) => ({
        name: 'InvalidRequestError',
        isItemsApiError: true,
        // Status 0: the call sent nothing (the service would have answered `..` as `/`).
        status: 0,
        message: expect.stringContaining(`cannot send the item id ${JSON.stringify(id)}`),
      })),
    )
  })
})

/** A project of a user's: ESM, strict, `"types": []` (so no @types/node), the example in it. */
async function writeConsumerProject(dir: string, serviceUrl: string): Promise<void> {
  const strict = { strict: true, types: [], lib: ['ES2022', 'DOM'], target: 'ES2022' }
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
  const files: Record<string, string> = {
    'package.json': json({ name: 'items-client-consumer', private: true, type: 'module' }),
    'tsconfig.json': json({
      compilerOptions: {
        ...strict,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        outDir: 'out',
      },
      files: ['example.ts'],
    }),
    'tsconfig.bundler.json': json({
      compilerOptions: {
        ...strict,
        module: 'esnext',
        moduleResolution: 'bundler',
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
      },
      files: ['example.ts'],
    }),
    'example.ts': pointedAt(serviceUrl, example),
    'tsconfig.types.json': json({
      compilerOptions: { ...strict, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['types.ts'],
    }),
    'types.ts': [
      "import { createItemsClient, type Item } from '@movies-and-mail/items-client'",
      "const items = createItemsClient<{ year: number }>('http://localhost:4000')",
      'export async function check(): Promise<void> {',
      "  const item = await items.get('tt0111161')",
      '  const year: number | undefined = item.year',
      "  const asText: Item['name'] = item.name",
      '  // @ts-expect-error year is a number',
      '  const wrong: string | undefined = item.year',
      "  await items.create({ id: 'tt1', name: 'A film', genre: 'Drama', year: 1994 })",
      '  // @ts-expect-error year is a number',
      "  await items.create({ id: 'tt1', name: 'A film', genre: 'Drama', year: '1994' })",
      "  await items.update('tt1', { year: 1995 })",
      '  // @ts-expect-error an update needs at least one field',
      "  await items.update('tt1', {})",
      "  for await (const each of items.all({ genre: 'Drama' })) console.log((each.year ?? 0) + 1)",
      '  console.log(year, asText, wrong)',
      '}',
      '',
    ].join('\n'),
    'tsconfig.empty-update.json': json({
      compilerOptions: { ...strict, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['empty-update.ts'],
    }),
    'empty-update.ts': [
      "import { createItemsClient } from '@movies-and-mail/items-client'",
      "await createItemsClient('http://localhost:4000').update('tt1', {})",
      '',
    ].join('\n'),
    // The ids as escapes: a lone surrogate has no UTF-8 of its own to write the file with.
    'unsendable-ids.mjs': [
      "import { createItemsClient, ItemsApiError } from '@movies-and-mail/items-client'",
      `const items = createItemsClient(${JSON.stringify(serviceUrl)})`,
      "for (const id of ['..', '\\ud800']) {",
      '  const error = await items.get(id).then(() => undefined, (caught) => caught)',
      '  const { name, status, message } = error ?? {}',
      '  const isItemsApiError = error instanceof ItemsApiError',
      '  console.log(JSON.stringify({ name, isItemsApiError, status, message }))',
      '}',
      '',
    ].join('\n'),
  }
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text)
}

/** The example with the live service's URL in place of the one it shows. */
function pointedAt(serviceUrl: string, text: string): string {
  const parts = text.split(`'${exampleUrl}'`)
  if (parts.length !== 2) throw new Error(`the example should call '${exampleUrl}' exactly once`)
  return parts.join(`'${serviceUrl}'`)
}
