import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { startBuiltMicro } from './support/built-micro.js'
import { expectStatedWeight } from './support/client-package.js'
import { registryProblem, usePackedClient, versionOf } from './support/consumer-project.js'
import { consumerFiles, exampleKey, exampleOutput } from './support/items-client-example.js'
import {
  expectBuildAlone,
  expectOwnDeclarations,
  expectPublishable,
} from './support/published-client.js'

// The built client: what it weighs, and what a user gets of it. Both build dist/ (the pack by
// its prepack script): in one file, the builds do not run side by side and undo each other.

const registry = await registryProblem('@movies-and-mail/items-client, packed')

it('the client’s README says what the built client weighs, bundled, minified and gzipped', () =>
  expectStatedWeight('items-client'))

// What a user does: pack the client, install the tarball into a project of their own (strict,
// no Node types), type-check the example its README quotes, run it with plain node against the
// service.
describe.skipIf(registry !== undefined)('@movies-and-mail/items-client, packed', () => {
  const packed = usePackedClient('items-client', {
    start: () => startBuiltMicro('items-service', { ITEMS_APIKEY: exampleKey }),
    files: consumerFiles,
    packages: async () => [await versionOf('typescript')],
  })

  it('packs the build alone: no sources, no tests', () => {
    expectBuildAlone(packed.project.tarballPaths)
  })

  it('installs nothing but itself: no mongodb, no dependency at all', async () => {
    const installed = (await packed.project.manifest()) as { dependencies?: object }
    expect(installed.dependencies).toBeUndefined()
    expect(existsSync(packed.project.path('node_modules/mongodb'))).toBe(false)
    const packages = (await readdir(packed.project.path('node_modules'))).filter(
      (name) => !name.startsWith('.'),
    )
    expect(packages.sort()).toEqual(['@movies-and-mail', 'typescript'])
  })

  it('declares its API in files of its own, referencing no other package', async () => {
    await expectOwnDeclarations(packed.project.installed('dist'))
  })

  it('type-checks the example under strict, with no types but the language and the DOM', async () => {
    await packed.project.tsc('--noEmit', '-p', 'tsconfig.json')
    await packed.project.tsc('--noEmit', '-p', 'tsconfig.bundler.json')
  })

  it('is publishable: not private, MIT, ESM with its types, no side effects', async () => {
    expectPublishable(await packed.project.manifest())
  })

  it('types custom fields and refuses an update with no field, at compile time', async () => {
    // types.ts holds what must compile, and what must not as @ts-expect-error lines.
    await packed.project.tsc('--noEmit', '-p', 'tsconfig.types.json')
    const refused = await packed.project.tsc('--noEmit', '-p', 'tsconfig.empty-update.json').then(
      () => expect.unreachable('update(id, {}) compiled'),
      (error: { stdout: string }) => error.stdout,
    )
    expect(refused).toContain("'update needs at least one field'")
    expect(refused.match(/error TS/g)).toHaveLength(1)
  })

  it('runs the compiled example with plain node against a live items-service', async () => {
    await packed.project.tsc('-p', 'tsconfig.json')
    const { stdout } = await packed.project.node('out/example.js')
    expect(stdout.split('\n')).toEqual([...exampleOutput, ''])
    // The second read of the same query was a 304: the service sent no list, the client
    // answered the one it kept.
    const reads = packed.service.entry.output.match(/ GET \/items (200|304) /g) ?? []
    expect(reads.filter((line) => line.includes('304'))).toHaveLength(1)
  })

  it('refuses an id no URL can carry with an ItemsApiError, before any request', async () => {
    const { stdout } = await packed.project.node('unsendable-ids.mjs')
    const refusals = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(refusals).toEqual(
      ['..', '\ud800'].map((id) => ({
        name: 'InvalidRequestError',
        isItemsApiError: true,
        // Status 0: the call sent nothing (the service would have answered `..` as `/`).
        status: 0,
        message: expect.stringContaining(`cannot send the item id ${JSON.stringify(id)}`),
      })),
    )
  })
})
