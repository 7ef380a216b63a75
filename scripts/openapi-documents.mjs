// Writes each micro's OpenAPI document, as its own `GET /openapi.json` answers it, to
// test-artifacts/openapi/<micro>.json for the linters of `npm run lint:openapi`. The apps are
// built in this process from their `createApp`, over in-memory adapters: no server, no store.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const root = new URL('..', import.meta.url).pathname
const outDir = join(root, 'test-artifacts/openapi')

// The workspace's packages export TypeScript, which Node cannot load: the apps are bundled first.
const apps = `
import { createApp as itemsApp } from './items-service/src/app.ts'
import { createApp as mailApp } from './mail-service/src/app.ts'
import { MemoryMailLog } from './mail-service/test/support/memory-stores/memory-mail-log.ts'
import { OutboxMailer } from './mail-service/src/mailer/outbox-mailer.ts'

const empty = new TextEncoder().encode('[]')
/** Never asked: the document is made without reading an item. */
const itemStore = {
  list: async () => empty,
  find: async () => null,
  insert: async () => {},
  update: async () => false,
  remove: async () => false,
  ping: async () => {},
  close: async () => {},
}
const outbox = new OutboxMailer(new MemoryMailLog())

export const micros = {
  'items-service': itemsApp({ store: itemStore, log: () => {} }),
  'mail-service': mailApp({
    mailer: outbox,
    mailLog: new MemoryMailLog(),
    outbox,
    apiKeys: ['openapi-documents'],
    corsOrigins: ['*'],
    template: { from: 'a@example.com', subject: 'Hello', text: 'Hello {name}' },
    log: () => {},
  }),
}
`

const bundled = await build({
  stdin: { contents: apps, resolveDir: root, sourcefile: 'openapi-apps.ts', loader: 'ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  write: false,
  logLevel: 'warning',
})
const scratch = await mkdtemp(join(tmpdir(), 'openapi-documents-'))
try {
  const module = join(scratch, 'apps.mjs')
  await writeFile(module, bundled.outputFiles[0].contents)
  const { micros } = await import(pathToFileURL(module).href)
  await mkdir(outDir, { recursive: true })
  for (const [name, app] of Object.entries(micros)) {
    const response = await app.request('/openapi.json')
    if (response.status !== 200) throw new Error(`${name}: GET /openapi.json: ${response.status}`)
    const file = join(outDir, `${name}.json`)
    await writeFile(file, `${JSON.stringify(await response.json(), null, 2)}\n`)
    console.log(`wrote ${file.slice(root.length)}`)
  }
} finally {
  await rm(scratch, { recursive: true, force: true })
}
