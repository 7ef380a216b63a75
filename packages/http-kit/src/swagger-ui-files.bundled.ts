import css from 'swagger-ui-dist/swagger-ui.css' with { type: 'text' }
import bundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'text' }
import init from './docs-init.js' with { type: 'text' }
import type { SwaggerUiFiles } from './docs-ui.js'

/**
 * Swagger UI's stylesheet and script and the kit's init script, held by the bundle itself as
 * text (esbuild's text imports): what the builds use (condition `text-imports`), so that
 * `dist/` needs no file beside it and the Worker, which has no file system, serves them too.
 */
export async function readSwaggerUiFiles(): Promise<SwaggerUiFiles> {
  return { css, bundle, init }
}
