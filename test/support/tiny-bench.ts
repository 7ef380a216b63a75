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

/**
 * `bench/bench.mjs` run once with `args`, after the builds it needs that are missing: what it
 * printed, and what it wrote to its `--out` file (in a folder of its own, removed after).
 */
export async function runTinyBench(
  args: readonly string[],
  builds: readonly Build[],
): Promise<{ stdout: string; written: string }> {
  for (const { file, npm } of builds) {
    if (!existsSync(join(root, file))) await run('npm', [...npm], { cwd: root })
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-test-'))
  try {
    const out = join(dir, 'bench.md')
    const { stdout } = await run(process.execPath, ['bench/bench.mjs', ...args, '--out', out], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 420_000,
    })
    return { stdout, written: await readFile(out, 'utf8') }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
