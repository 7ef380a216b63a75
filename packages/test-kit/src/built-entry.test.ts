import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { BuiltEntry } from './built-entry.js'
import { killBuiltEntries } from './running-children.js'

/** A stand-in for a micro's dist/server.js; MODE picks how it behaves. */
const tinyServer = `
import { createServer } from 'node:http'
const mode = process.env.MODE ?? 'serve'
if (mode === 'fail') {
  console.log('tiny is starting')
  console.error('tiny cannot start: port 1 is in use')
  process.exit(3)
}
console.log(\`inherited=\${process.env.BUILT_ENTRY_INHERITED ?? '-'} given=\${process.env.GIVEN ?? '-'}\`)
console.error('a line on stderr')
if (mode === 'silent') setInterval(() => {}, 1_000)
else {
  const server = createServer((_, response) => response.end('tiny here'))
  server.listen(Number(process.env.PORT), process.env.HOST, () => {
    const { address, port } = server.address()
    console.log(\`tiny listening on http://\${address}:\${port} (\${process.env.HOST}:\${process.env.PORT})\`)
  })
  process.on('SIGTERM', () => {
    if (mode === 'stubborn') return console.log('SIGTERM ignored')
    console.log('SIGTERM: stopping')
    server.close(() => process.exit(0))
  })
}
`

/** A test process of its own: starts the tiny server, says its pid, then waits or exits. */
const testProcess = `
import { BuiltEntry } from './kit.mjs'
const entry = await BuiltEntry.start(process.argv[2])
console.log(\`entry pid \${entry.pid}\`)
if (process.argv[3] === 'exit') process.exit(0)
setInterval(() => {}, 1_000)
`

let dir: string
let entry: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'built-entry-'))
  entry = join(dir, 'tiny-server.mjs')
  await writeFile(entry, tinyServer)
})
afterAll(() => rm(dir, { recursive: true, force: true }))
afterEach(killBuiltEntries)

/** Whether `pid` is a process that runs (a zombie waiting to be reaped does not). */
async function runs(pid: number): Promise<boolean> {
  try {
    return !/^\d+ \(.*\) Z/.test(await readFile(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

describe('BuiltEntry.start', () => {
  it('resolves with the URL of the listening line, where the process answers', async () => {
    const tiny = await BuiltEntry.start(entry)
    expect(tiny.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await (await fetch(tiny.url)).text()).toBe('tiny here')
    expect(tiny.alive).toBe(true)
  })

  it('runs it on HOST=127.0.0.1 and PORT=0 over process.env, and the env given over both', async () => {
    process.env.BUILT_ENTRY_INHERITED = 'yes'
    process.env.GIVEN = 'from the shell'
    try {
      const tiny = await BuiltEntry.start(entry, { env: { GIVEN: 'by the test' } })
      expect(tiny.stdout).toContain('inherited=yes given=by the test')
      expect(tiny.stdout).toContain('(127.0.0.1:0)')
      const without = await BuiltEntry.start(entry, { env: { GIVEN: undefined } })
      expect(without.stdout).toContain('given=-')
    } finally {
      delete process.env.BUILT_ENTRY_INHERITED
      delete process.env.GIVEN
    }
  })

  it('passes on only the variables named in inherit', async () => {
    process.env.BUILT_ENTRY_INHERITED = 'yes'
    try {
      const tiny = await BuiltEntry.start(entry, { inherit: ['PATH'], env: { GIVEN: 'g' } })
      expect(tiny.stdout).toContain('inherited=- given=g')
    } finally {
      delete process.env.BUILT_ENTRY_INHERITED
    }
  })

  it('keeps stdout and stderr apart, and both in output', async () => {
    const tiny = await BuiltEntry.start(entry, { cwd: dir })
    // The two are separate pipes: the stderr line, written first, may arrive after the listening
    // line that ends the start.
    await vi.waitFor(() => expect(tiny.stderr).toBe('a line on stderr\n'))
    expect(tiny.stdout).not.toContain('a line on stderr')
    expect(tiny.output).toContain('a line on stderr\n')
    expect(tiny.output).toContain('tiny listening on')
  })

  it('rejects with what the process printed when it exits before listening', async () => {
    const failure = BuiltEntry.start(entry, { env: { MODE: 'fail' } })
    await expect(failure).rejects.toThrow(/tiny-server\.mjs exited before listening .*code 3/)
    await expect(failure).rejects.toThrow(/printed:\n.*tiny cannot start: port 1 is in use/s)
  })

  it('rejects with what the process printed, and kills it, when it does not listen in time', async () => {
    const started = Date.now()
    const failure = BuiltEntry.start(entry, { env: { MODE: 'silent' }, timeoutMs: 500 })
    await expect(failure).rejects.toThrow(
      /did not listen within 500 ms \(it ended with signal SIGKILL\).*a line on stderr/s,
    )
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it('says to build first when there is no entry', async () => {
    await expect(BuiltEntry.start('dist/server.js', { cwd: dir })).rejects.toThrow(
      `no built entry at ${join(dir, 'dist/server.js')}: run \`npm run build\` first`,
    )
  })
})

describe('stopping a built entry', () => {
  it('sends SIGTERM and resolves with the exit', async () => {
    const tiny = await BuiltEntry.start(entry)
    expect(await tiny.stop()).toEqual({ code: 0, signal: null })
    expect(tiny.stdout).toContain('SIGTERM: stopping')
    expect(tiny.alive).toBe(false)
  })

  it('kills with SIGKILL a process that outlasts graceMs', async () => {
    const tiny = await BuiltEntry.start(entry, { env: { MODE: 'stubborn' } })
    expect(await tiny.stop(300)).toEqual({ code: null, signal: 'SIGKILL' })
    expect(tiny.stdout).toContain('SIGTERM ignored')
  })

  it('sends the signal given, and tells in exited how the process ended', async () => {
    const tiny = await BuiltEntry.start(entry)
    tiny.kill('SIGINT')
    expect(await tiny.exited).toEqual({ code: null, signal: 'SIGINT' })
  })

  it('kills every entry still running with killBuiltEntries()', async () => {
    const entries = await Promise.all([BuiltEntry.start(entry), BuiltEntry.start(entry)])
    await killBuiltEntries()
    for (const tiny of entries) expect(await tiny.exited).toEqual({ code: null, signal: 'SIGKILL' })
  })
})

describe('BuiltEntry.startExpectingFailure', () => {
  it('resolves with the exit code and what the process printed', async () => {
    const failed = await BuiltEntry.startExpectingFailure(entry, { env: { MODE: 'fail' } })
    expect(failed).toMatchObject({
      code: 3,
      signal: null,
      stdout: 'tiny is starting\n',
      stderr: 'tiny cannot start: port 1 is in use\n',
    })
    // The two pipes are read as data comes: their lines may arrive in either order.
    expect(failed.output.split('\n').sort()).toEqual([
      '',
      'tiny cannot start: port 1 is in use',
      'tiny is starting',
    ])
  })

  it('rejects, and kills the process, when it listens instead', async () => {
    await expect(BuiltEntry.startExpectingFailure(entry)).rejects.toThrow(
      /listens on http:\/\/127\.0\.0\.1:\d+ though its start was expected to fail \(it ended with signal SIGKILL\).*tiny listening/s,
    )
  })
})

describe('a test process that ends', () => {
  it.each(['SIGTERM', 'exit'])('takes its built entries with it (%s)', async (how) => {
    const kit = join(dir, 'kit.mjs')
    // BuiltEntry's own module: the kit's index also holds stand-ins that do not bundle whole.
    const entryPoint = fileURLToPath(new URL('./built-entry.ts', import.meta.url))
    await build({
      entryPoints: [entryPoint],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: kit,
    })
    await writeFile(join(dir, 'test-process.mjs'), testProcess)
    const parent = spawn(process.execPath, ['test-process.mjs', entry, how], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      const ended = new Promise((resolve) =>
        parent.once('exit', (code, signal) => resolve({ code, signal })),
      )
      let printed = ''
      const pid = await new Promise<number>((resolve, reject) => {
        parent.stdout.setEncoding('utf8').on('data', (text: string) => {
          printed += text
          const said = /entry pid (\d+)/.exec(printed)?.[1]
          if (said) resolve(Number(said))
        })
        void ended.then(() => reject(new Error(`the test process ended early: ${printed}`)))
      })
      if (how === 'SIGTERM') {
        expect(await runs(pid)).toBe(true)
        parent.kill('SIGTERM')
        expect(await ended).toEqual({ code: null, signal: 'SIGTERM' })
      } else {
        expect(await ended).toEqual({ code: 0, signal: null })
      }
      await expect.poll(() => runs(pid), { timeout: 2_000 }).toBe(false)
    } finally {
      parent.kill('SIGKILL')
    }
  })
})
