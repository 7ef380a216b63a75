import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { expect } from 'vitest'

// A client package as its README presents it: the example it quotes, and what the build weighs.

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../', import.meta.url))

export type ClientName = 'items-client' | 'mail-client'

/** The folder of a client package. */
export const clientDir = (client: ClientName) => join(root, 'packages', client)

export const readmeOf = (client: ClientName) =>
  readFile(join(clientDir(client), 'README.md'), 'utf8')

/** The client's example.ts, which its README quotes. */
export const exampleOf = (client: ClientName) =>
  readFile(join(clientDir(client), 'example.ts'), 'utf8')

/** The example with the live service's URL in place of the one it shows. */
export function pointedAt(example: string, shownUrl: string, serviceUrl: string): string {
  const parts = example.split(`'${shownUrl}'`)
  if (parts.length !== 2) throw new Error(`the example should call '${shownUrl}' exactly once`)
  return parts.join(`'${serviceUrl}'`)
}

/** Builds the client and checks the weight its README states, bundled, minified and gzipped. */
export async function expectStatedWeight(client: ClientName): Promise<void> {
  await run('npm', ['run', 'build', '-w', `@movies-and-mail/${client}`], { cwd: root })
  const readme = await readmeOf(client)
  const [, stated = ''] = /([\d.]+) KB minified and gzipped/.exec(readme) ?? []
  const { outputFiles } = await build({
    entryPoints: [join(clientDir(client), 'dist/index.js')],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
  })
  const bytes = gzipSync(outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length
  expect(Math.abs(Number(stated) - bytes / 1000)).toBeLessThanOrEqual(0.1)
}
