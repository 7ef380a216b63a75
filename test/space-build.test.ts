import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { BuiltEntry, killBuiltEntries } from '@movies-and-mail/test-kit'
import { chromium } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'

// Builds each micro the way a Deta-style builder does: a copy of the repository without anything
// installed or built, the micro's `commands` run in its `src`, then only its `include` paths
// copied into an empty folder, where `run` starts. Each micro gets its own copy, as `npm ci`
// starts from an empty node_modules.

type Micro = {
  name: string
  src: string
  commands: string[]
  include: string[]
  run: string
  presets?: { env?: { name: string; default?: string }[] }
}

const root = fileURLToPath(new URL('../', import.meta.url))
const spacefile = parse(readFileSync(join(root, 'Spacefile'), 'utf8')) as { micros: Micro[] }
const notCopied = new Set(['node_modules', 'dist', '.data', 'test-artifacts', '.wrangler', '.git'])
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium'
const hasChromium = existsSync(chromePath)
const run = promisify(execFile)

/** The environment of a builder's shell: this one without what npm set for the test run. */
const builderEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))

/** Folders above `dir` holding a node_modules, which Node would search for a missing package. */
function nodeModulesAbove(dir: string): string[] {
  const found: string[] = []
  for (let parent = dirname(dir); ; parent = dirname(parent)) {
    if (existsSync(join(parent, 'node_modules'))) found.push(parent)
    if (parent === dirname(parent)) return found
  }
}

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

afterEach(killBuiltEntries)

describe.each(spacefile.micros.map((micro) => [micro.name, micro] as const))(
  'the %s micro built like a Deta-style builder',
  { timeout: 120_000 },
  (name, micro) => {
    let repo: string
    let shipped: string
    let dataDir: string
    const entry = micro.run.match(/^node (\S+)$/)?.[1] as string
    const presets = Object.fromEntries(
      (micro.presets?.env ?? []).flatMap(({ name, default: value }) =>
        value === undefined ? [] : [[name, value]],
      ),
    )
    /** As the host would start it: in the shipped folder, with the presets' defaults. */
    const options = (env: Record<string, string> = {}) => ({
      cwd: shipped,
      inherit: ['PATH'],
      env: { ...presets, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    })
    const start = () => BuiltEntry.start(join(shipped, entry), options())

    beforeAll(async () => {
      repo = await mkdtemp(join(tmpdir(), `space-build-${name}-`))
      shipped = await mkdtemp(join(tmpdir(), `space-shipped-${name}-`))
      dataDir = await mkdtemp(join(tmpdir(), `space-data-${name}-`))
      await cp(root, repo, {
        recursive: true,
        filter: (path) => !notCopied.has(basename(path)) && !basename(path).startsWith('dist-'),
      })
      const src = join(repo, micro.src)
      const started = Date.now()
      for (const command of micro.commands) {
        await run('sh', ['-c', command], { cwd: src, env: builderEnv(), maxBuffer: 64 << 20 })
      }
      for (const path of micro.include) {
        await cp(join(src, path), join(shipped, path), { recursive: true, verbatimSymlinks: true })
      }
      await rm(repo, { recursive: true, force: true })
      const { stdout } = await run('du', ['-sh', shipped])
      console.log(`${name}: built in ${Date.now() - started} ms, ships ${stdout.split('\t')[0]}`)
    }, 240_000)

    afterAll(async () => {
      for (const dir of [repo, shipped, dataDir]) {
        if (dir) await rm(dir, { recursive: true, force: true })
      }
    })

    it('ships into a folder with no node_modules above it', () => {
      expect(nodeModulesAbove(shipped)).toEqual([])
    })

    it('starts `run` from the shipped files alone and answers /healthz', async () => {
      const service = await start()
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
      expect(service.output).not.toMatch(/Cannot find (package|module)/)
      expect(await service.stop()).toEqual({ code: 0, signal: null })
    })

    it.runIf(name === 'items')(
      'loads the MongoDB driver when CONNECTION_URL is set and fails on the closed port',
      async () => {
        const failed = await BuiltEntry.startExpectingFailure(
          join(shipped, entry),
          options({
            CONNECTION_URL: `mongodb://127.0.0.1:${await closedPort()}`,
            CONNECT_TIMEOUT_MS: '1500',
          }),
        )
        expect(failed.output).not.toMatch(/Cannot find (package|module)/)
        expect(failed.output).toMatch(/no answer from the database within 1500 ms/)
        expect(failed.code).not.toBe(0)
      },
    )

    it.runIf(name === 'items' && hasChromium)(
      'serves a page that renders in Chromium',
      async () => {
        const service = await start()
        const browser = await chromium.launch({
          executablePath: chromePath,
          headless: true,
          args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
        })
        try {
          const page = await browser.newPage()
          const errors: string[] = []
          page.on('pageerror', (error) => errors.push(error.message))
          await page.goto(service.url)
          await page.getByText('No movies yet').waitFor({ state: 'visible' })
          expect(errors).toEqual([])
        } finally {
          await browser.close()
          await service.stop()
        }
      },
    )
  },
)

if (!hasChromium) {
  console.log(
    `space build: the page check is skipped, no Chromium at ${chromePath} (install Debian's chromium or set CHROME_PATH)`,
  )
}
