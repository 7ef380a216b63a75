import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import type { SwaggerUiFiles } from './docs-ui.js'
import { readSwaggerUiFiles } from './swagger-ui-files.js'

/** The bundled reader as the builds make it: `#swagger-ui-files` under `text-imports`. */
async function bundledReader(): Promise<() => Promise<SwaggerUiFiles>> {
  const result = await build({
    stdin: {
      contents: "export * from '#swagger-ui-files'",
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['text-imports'],
    write: false,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]?.text ?? ''
  const module = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)
  return module.readSwaggerUiFiles
}

describe('readSwaggerUiFiles', () => {
  it('gives the same files read from disk as bundled by the builds', async () => {
    const [fromDisk, bundled] = await Promise.all([
      readSwaggerUiFiles(),
      bundledReader().then((read) => read()),
    ])
    expect(fromDisk.bundle).toMatch(/SwaggerUIBundle/)
    expect(fromDisk.css).toMatch(/^\.swagger-ui/)
    expect(fromDisk.init).toContain('openapi.json')
    expect(bundled).toEqual(fromDisk)
  })
})
