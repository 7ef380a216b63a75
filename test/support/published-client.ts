import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'

// What every client package must be, packed and installed, to be published.

/** Checks that a tarball holds the build alone: no sources, no tests. */
export function expectBuildAlone(packed: readonly string[]): void {
  expect(packed).toContain('dist/index.js')
  expect(packed).toContain('dist/index.d.ts')
  for (const path of packed) {
    const documents = ['package.json', 'README.md', 'LICENSE']
    expect(documents.includes(path) || path.startsWith('dist/'), path).toBe(true)
    expect(path).not.toMatch(/(^|\/)src\/|\.test\./)
    if (path.endsWith('.ts')) expect(path).toMatch(/\.d\.ts$/)
  }
}

/** Checks that the declarations in `dist` reference no other package. */
export async function expectOwnDeclarations(dist: string): Promise<void> {
  const declarations = (await readdir(dist)).filter((name) => name.endsWith('.d.ts'))
  for (const name of declarations) {
    const text = await readFile(join(dist, name), 'utf8')
    expect(text, name).not.toContain('/// <reference')
    for (const [, specifier] of text.matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
      expect(specifier, `${name} imports ${specifier}`).toMatch(/^\.\//)
    }
  }
}

/** Checks that a manifest can be published: not private, MIT, ESM with its types, no side effects. */
export function expectPublishable(manifest: Record<string, unknown>): void {
  expect(manifest).toMatchObject({
    license: 'MIT',
    type: 'module',
    sideEffects: false,
    types: './dist/index.d.ts',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    engines: { node: expect.any(String) },
  })
  expect(manifest.private).toBeUndefined()
}
