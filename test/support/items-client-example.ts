import { exampleOf, pointedAt } from './client-package.js'
import { jsonText as json } from './consumer-project.js'

// The items-client's example, what it prints, and a user's project around it.

/** What the example calls; the tests point it at a live service started with its key. */
const exampleUrl = 'http://localhost:4000'
export const exampleKey = 'my-items-api-key-1'

/** What the example prints against a fresh service, line by line. */
export const exampleOutput = [
  'created: tt0111161, tt0068646, Amélie 2001',
  'read: Amélie / Comedy',
  'updated: Romance',
  "refused: 412 item 'Amélie 2001' does not match If-Match",
  'all: Amélie, The Godfather, The Shawshank Redemption',
  'crime (1): The Godfather, 1972',
  'crime (2): The Godfather, 1972',
  'event: updated tt0111161 Crime',
]

const example = await exampleOf('items-client')

/**
 * A project of a user's: ESM, strict, `"types": []` (so no @types/node), the example in it
 * pointed at `serviceUrl`, and the scripts that check what compiles and what a call refuses.
 */
export function consumerFiles(serviceUrl: string): Record<string, string> {
  const strict = { strict: true, types: [], lib: ['ES2022', 'DOM'], target: 'ES2022' }
  return {
    'package.json': json({ name: 'items-client-consumer', private: true, type: 'module' }),
    'tsconfig.json': json({
      compilerOptions: {
        ...strict,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        outDir: 'out',
      },
      files: ['example.ts'],
    }),
    'tsconfig.bundler.json': json({
      compilerOptions: {
        ...strict,
        module: 'esnext',
        moduleResolution: 'bundler',
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
      },
      files: ['example.ts'],
    }),
    'example.ts': pointedAt(example, exampleUrl, serviceUrl),
    'tsconfig.types.json': json({
      compilerOptions: { ...strict, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['types.ts'],
    }),
    'types.ts': [
      "import { createItemsClient, type Item } from '@movies-and-mail/items-client'",
      "const items = createItemsClient<{ year: number }>('http://localhost:4000')",
      'export async function check(): Promise<void> {',
      "  const item = await items.get('tt0111161')",
      '  const year: number | undefined = item.year',
      "  const asText: Item['name'] = item.name",
      '  // @ts-expect-error year is a number',
      '  const wrong: string | undefined = item.year',
      "  await items.create({ id: 'tt1', name: 'A film', genre: 'Drama', year: 1994 })",
      '  // @ts-expect-error year is a number',
      "  await items.create({ id: 'tt1', name: 'A film', genre: 'Drama', year: '1994' })",
      "  await items.update('tt1', { year: 1995 })",
      '  // @ts-expect-error an update needs at least one field',
      "  await items.update('tt1', {})",
      "  for await (const each of items.all({ genre: 'Drama' })) console.log((each.year ?? 0) + 1)",
      '  console.log(year, asText, wrong)',
      '}',
      '',
    ].join('\n'),
    'tsconfig.empty-update.json': json({
      compilerOptions: { ...strict, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['empty-update.ts'],
    }),
    'empty-update.ts': [
      "import { createItemsClient } from '@movies-and-mail/items-client'",
      "await createItemsClient('http://localhost:4000').update('tt1', {})",
      '',
    ].join('\n'),
    // The ids as escapes: a lone surrogate has no UTF-8 of its own to write the file with.
    'unsendable-ids.mjs': [
      "import { createItemsClient, ItemsApiError } from '@movies-and-mail/items-client'",
      `const items = createItemsClient(${JSON.stringify(serviceUrl)})`,
      "for (const id of ['..', '\\ud800']) {",
      '  const error = await items.get(id).then(() => undefined, (caught) => caught)',
      '  const { name, status, message } = error ?? {}',
      '  const isItemsApiError = error instanceof ItemsApiError',
      '  console.log(JSON.stringify({ name, isItemsApiError, status, message }))',
      '}',
      '',
    ].join('\n'),
  }
}
