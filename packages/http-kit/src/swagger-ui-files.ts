import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { SwaggerUiFiles } from './docs-ui.js'

const require = createRequire(import.meta.url)

/**
 * Swagger UI's stylesheet and script from the installed `swagger-ui-dist`, and the kit's own
 * init script, read from disk: what runs the kit's sources unbundled (vitest). The bundles get
 * `swagger-ui-files.bundled.ts` instead (package.json `imports`, condition `text-imports`).
 */
export async function readSwaggerUiFiles(): Promise<SwaggerUiFiles> {
  const [css, bundle, init] = await Promise.all([
    readFile(require.resolve('swagger-ui-dist/swagger-ui.css'), 'utf8'),
    readFile(require.resolve('swagger-ui-dist/swagger-ui-bundle.js'), 'utf8'),
    readFile(new URL('./docs-init.js', import.meta.url), 'utf8'),
  ])
  return { css, bundle, init }
}
