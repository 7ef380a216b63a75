import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../', import.meta.url))

/** A build a bench part needs: the file it makes, and the npm arguments that make it. */
export type Build = { file: string; npm: string[] }

/** Makes each of `builds` whose file is missing. */
async function buildMissing(builds: readonly Build[]): Promise<void> {
  for (const { file, npm } of builds) {
    if (!existsSync(join(root, file))) await run('npm', [...npm], { cwd: root })
  }
}

/** `bench/<script>` run once with `args`, after the builds it needs that are missing: what it printed. */
export async function runBenchScript(
  script: string,
  args: readonly string[],
  builds: readonly Build[],
  timeoutMs: number,
): Promise<string> {
  await buildMissing(builds)
  const { stdout } = await run(process.execPath, [`bench/${script}`, ...args], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
    timeout: timeoutMs,
  })
  return stdout
}

/**
 * `bench/bench.mjs` run once with `args`, after the builds it needs that are missing: what it
 * printed, and what it wrote to its `--out` file (in a folder of its own, removed after).
 */
export async function runTinyBench(
  args: readonly string[],
  builds: readonly Build[],
): Promise<{ stdout: string; written: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-test-'))
  try {
    const out = join(dir, 'bench.md')
    const stdout = await runBenchScript('bench.mjs', [...args, '--out', out], builds, 420_000)
    return { stdout, written: await readFile(out, 'utf8') }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
