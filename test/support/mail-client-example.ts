import { exampleOf, pointedAt } from './client-package.js'
import { jsonText as json } from './consumer-project.js'

// The mail-client's example, what it prints, and a user's project around it.

/** What the example calls; the tests point it at a live service started with its key. */
const exampleUrl = 'http://localhost:4001'
export const exampleKey = 'my-mail-api-key-1'

/** What the example prints against a fresh service, line by line. */
export const exampleOutput = [
  'sent: Queued. Thank you.',
  'sent once: Queued. Thank you. (2 answers, the first lost)',
  'refused: 400 invalid request body (email: must be exactly one email address, like ada@example.com)',
  'log: grace@example.com, ada@example.com',
]

const example = await exampleOf('mail-client')

/** A project of a user's: ESM, strict, the example in it, and one tsconfig per kind of project. */
export function consumerFiles(serviceUrl: string): Record<string, string> {
  const strict = { strict: true, target: 'ES2022', noEmit: true }
  const project = (compilerOptions: object) => json({ compilerOptions, files: ['example.ts'] })
  const nodeNext = { module: 'nodenext', moduleResolution: 'nodenext' }
  return {
    'package.json': json({ name: 'mail-client-consumer', private: true, type: 'module' }),
    'tsconfig.json': project({
      ...strict,
      ...nodeNext,
      types: [],
      lib: ['ES2022', 'DOM'],
      noEmit: false,
      outDir: 'out',
    }),
    'tsconfig.bundler.json': project({
      ...strict,
      module: 'esnext',
      moduleResolution: 'bundler',
      types: [],
      lib: ['ES2022', 'DOM'],
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
    }),
    'tsconfig.node.json': project({ ...strict, ...nodeNext, types: ['node'], lib: ['ES2022'] }),
    'tsconfig.workers.json': project({
      ...strict,
      module: 'esnext',
      moduleResolution: 'bundler',
      types: ['@cloudflare/workers-types'],
      lib: ['ES2022'],
      exactOptionalPropertyTypes: true,
    }),
    'example.ts': pointedAt(example, exampleUrl, serviceUrl),
  }
}
