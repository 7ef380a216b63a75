import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '@movies-and-mail/test-kit'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../', import.meta.url))
type Run = { child: ChildProcess; output: () => string; exited: Promise<number | null> }
const runs: Run[] = []

/** `node scripts/start.mjs` with PATH and `env` only: no HOST or PORT of the caller's shell. */
function startScript(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8').on('data', (text: string) => {
      output += text
    })
  }
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
  const run = { child, output: () => output, exited }
  runs.push(run)
  return run
}

/** A port nothing listens on right now. */
let dataDir = ''
beforeAll(async () => {
  for (const micro of ['items-service', 'mail-service']) {
    if (!existsSync(join(root, micro, 'dist/server.js'))) {
      throw new Error(`no ${micro}/dist/server.js: run \`npm run build\` first`)
    }
  }
})
afterEach(async () => {
  for (const { child } of runs.splice(0)) child.kill('SIGKILL')
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('node scripts/build-when-changed.mjs, which npm start runs first', () => {
  it('builds nothing when every built entry is newer than what it is built from', async () => {
    // `npm test` has just built everything.
    const child = spawn(process.execPath, ['scripts/build-when-changed.mjs'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let said = ''
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      said += text
    })
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect([code, said]).toEqual([0, ''])
  })
})

describe('node scripts/start.mjs', () => {
  it('refuses a bare PORT, naming ITEMS_PORT and MAIL_PORT, with exit code 2', async () => {
    const run = startScript({ PORT: '5301' })
    expect(await run.exited).toBe(2)
    expect(run.output()).toContain('set ITEMS_PORT and MAIL_PORT instead')
  })

  it('runs both micros on 127.0.0.1 at ITEMS_PORT and MAIL_PORT, and stops both on SIGTERM', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'start-script-'))
    const [itemsPort, mailPort] = [await freePort(), await freePort()]
    const run = startScript({
      ITEMS_PORT: String(itemsPort),
      MAIL_PORT: String(mailPort),
      DATA_DIR: dataDir,
    })
    const items = `http://127.0.0.1:${itemsPort}`
    const mail = `http://127.0.0.1:${mailPort}`
    const started = () =>
      /items-service listening/.test(run.output()) && /x-apikey: \S+\n/.test(run.output())
    await expect.poll(started, { timeout: 20_000 }).toBe(true)
    const output = run.output()
    expect(output).toContain(`items | items-service listening on ${items} (`)
    expect(output).toContain(`items | page: ${items}/\n`)
    expect(output).toContain(`mail  | mail-service listening on ${mail}\n`)
    const key = /mail {2}\| {3}x-apikey: (\S+)/.exec(output)?.[1] ?? ''
    expect((await fetch(`${items}/items`)).status).toBe(200)
    const log = await fetch(`${mail}/maillog`, { headers: { 'x-apikey': key } })
    expect(log.status).toBe(200)

    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  })
})
