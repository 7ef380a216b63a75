import { OpenApiContract } from '@movies-and-mail/test-kit'
import { describe, expect, it } from 'vitest'
import { failingStore } from '../../test/support/failing-store.js'
import {
  type RefusedBody,
  refusedOnCreate,
  refusedOnUpdate,
} from '../../test/support/refused-item-bodies.js'
import { movies } from '../../test/support/test-app.js'
import { createApp } from '../app.js'
import { maxNestingDepth } from '../items/item.schema.js'

const contract = await OpenApiContract.of(
  createApp({ store: failingStore(() => new Error('unused')), log: () => {} }),
)
const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { level: nested(depth - 1) })

// The route tests refuse these bodies with 400 (`items.bad-input.test.ts`): a client or a
// validator that knows only the published document must be able to refuse them as well.
describe.each([
  ['post', '/items', refusedOnCreate],
  ['put', '/items/{id}', refusedOnUpdate],
] as const)('the document of %s %s', (method, template, refused: RefusedBody[]) => {
  const checked = refused.filter((entry) => entry.notInDocument === undefined)

  it.each(checked)('refuses $what, as the service does', ({ body }) => {
    expect(contract.requestBodyProblems(method, template, JSON.parse(String(body)))).not.toEqual([])
  })

  it('leaves out only bodies that no schema can see, saying why', () => {
    const left = refused.filter((entry) => entry.notInDocument !== undefined)
    expect(left.map(({ what, notInDocument }) => [what, notInDocument])).toEqual([
      ['invalid JSON', 'not JSON: no schema sees it'],
      ['an empty body', 'not JSON: no schema sees it'],
      ...[
        'bytes that are not UTF-8 in the name',
        'bytes that are not UTF-8 in a field name',
        'a number beyond the range of a double',
        'a number too small to keep',
        'an integer beyond 2^53 that would be rounded',
        'an integer beyond 2^53 written with a fraction of zeros',
        'an integer beyond 2^53 written with an exponent',
        'an integer beyond 2^53 written with a negative exponent',
        'a field given twice',
        'a nested field given twice',
      ].map((what) => [what, 'changed by parsing, before any schema sees it']),
    ])
  })

  it.each([
    ['a movie', movies.godfather],
    ['other fields of every JSON type', { ...movies.godfather, year: 1972, on: true, x: null }],
    ['characters beyond the BMP', { ...movies.godfather, name: '🎬 𝔄𝔪𝔢𝔩𝔦𝔢', note: '🍿' }],
    [
      'values nested as deep as allowed',
      { ...movies.godfather, deep: nested(maxNestingDepth - 1) },
    ],
    [
      'nothing below the deepest level',
      { ...movies.godfather, deep: { a: { b: { c: { d: [] } } } } },
    ],
    ['`_id` and `$` inside a name below the top', { ...movies.godfather, meta: { _id: 1, a$: 2 } }],
  ])('admits %s, as the service does', (_, body) => {
    expect(contract.requestBodyProblems(method, template, body)).toEqual([])
  })
})
