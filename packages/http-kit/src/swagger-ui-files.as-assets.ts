import type { SwaggerUiFiles } from './docs-ui.js'

/**
 * Swagger UI for a Worker whose static assets hold the docs page and the files it loads (the
 * builds write them from the Node service's own responses, headers included): the platform serves
 * those without running the Worker, so the app only sees `/docs/{file}` for a name that is none
 * of them, and answers it 404. The builds pick this reader with the condition `static-assets`,
 * which keeps Swagger UI's 1.5 MB out of the script.
 */
export async function readSwaggerUiFiles(): Promise<SwaggerUiFiles> {
  return { css: '', bundle: '', init: '' }
}
