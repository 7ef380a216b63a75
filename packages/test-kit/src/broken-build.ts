import { cp, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * A copy of a service's build whose chunks (in `chunks/`) named by `broken` are each replaced by
 * a syntax error: what a start that loads one of them reads. Made beside `dist`, so that the copy
 * finds the packages the build leaves external. Throws when a pattern names no chunk, so that a
 * test of a chunk the build no longer makes fails.
 * @example const dist = await brokenBuild(serviceDir, 'optional', [/^json-log-.*\.js$/])
 */
export async function brokenBuild(
  serviceDir: string,
  name: string,
  broken: readonly RegExp[],
): Promise<string> {
  const dist = join(serviceDir, `dist-broken-${name}-${process.pid}`)
  await rm(dist, { recursive: true, force: true })
  await cp(join(serviceDir, 'dist'), dist, { recursive: true })
  const chunks = await readdir(join(dist, 'chunks'))
  for (const pattern of broken) {
    const chunk = chunks.find((file) => pattern.test(file))
    if (!chunk) throw new Error(`the build has no chunk ${pattern}`)
    await writeFile(join(dist, 'chunks', chunk), 'export const broken = ;\n')
  }
  return dist
}
