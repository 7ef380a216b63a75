import { readdir } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { startBuiltMicro } from './support/built-micro.js'
import { expectStatedWeight } from './support/client-package.js'
import { registryProblem, usePackedClient, versionOf } from './support/consumer-project.js'
import { consumerFiles, exampleKey, exampleOutput } from './support/mail-client-example.js'
import { outbox } from './support/outbox.js'
import {
  expectBuildAlone,
  expectOwnDeclarations,
  expectPublishable,
} from './support/published-client.js'

// The built client: what it weighs, and what a user gets of it. Both build dist/ (the pack by
// its prepack script): in one file, the builds do not run side by side and undo each other.

const registry = await registryProblem('@movies-and-mail/mail-client, packed')

it('the client’s README says what the built client weighs, bundled, minified and gzipped', () =>
  expectStatedWeight('mail-client'))

// What a user does: pack the client, install the tarball into a project of their own (strict,
// no Node types; or Node's types, or the Workers', and no DOM), type-check the example its
// README quotes, run it with plain node against the service.
describe.skipIf(registry !== undefined)('@movies-and-mail/mail-client, packed', () => {
  const packed = usePackedClient('mail-client', {
    start: () =>
      startBuiltMicro('mail-service', { API_KEYS: exampleKey, MAIL_TRANSPORT: 'outbox' }),
    files: consumerFiles,
    packages: () =>
      Promise.all(['typescript', '@types/node', '@cloudflare/workers-types'].map(versionOf)),
  })

  it('packs the build alone: no sources, no tests', () => {
    expectBuildAlone(packed.project.tarballPaths)
  })

  it('is publishable and installs nothing but itself', async () => {
    const manifest = await packed.project.manifest()
    expectPublishable(manifest)
    expect(manifest.dependencies).toBeUndefined()
    expect(await readdir(packed.project.path('node_modules/@movies-and-mail'))).toEqual([
      'mail-client',
    ])
  })

  it('declares its API in files of its own, referencing no other package', async () => {
    await expectOwnDeclarations(packed.project.installed('dist'))
  })

  it('type-checks the example under strict: with the DOM and no other types', async () => {
    await packed.project.tsc('--noEmit', '-p', 'tsconfig.json')
    await packed.project.tsc('--noEmit', '-p', 'tsconfig.bundler.json')
  })

  it('type-checks the example under strict in a back end: Node’s types, or the Workers’', async () => {
    await packed.project.tsc('--noEmit', '-p', 'tsconfig.node.json')
    await packed.project.tsc('--noEmit', '-p', 'tsconfig.workers.json')
  })

  it('runs the compiled example with plain node against a live mail-service', async () => {
    await packed.project.tsc('-p', 'tsconfig.json')
    const { stdout } = await packed.project.node('out/example.js')
    expect(stdout.split('\n')).toEqual([...exampleOutput, ''])
    // The send whose answer was lost is in the outbox once.
    const sent = (await outbox(packed.service.url, exampleKey)).map(({ to }) => to)
    expect(sent).toEqual(['grace@example.com', 'ada@example.com'])
  })
})
