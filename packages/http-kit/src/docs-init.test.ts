import { readFile } from 'node:fs/promises'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'

type Spec = { servers?: { url: string }[]; [key: string]: unknown }
type Plugin = () => {
  statePlugins: {
    spec: {
      wrapActions: { updateJsonSpec: (update: (spec: Spec) => Spec) => (spec: Spec) => Spec }
    }
  }
}
type Config = { url: string; dom_id: string; validatorUrl: unknown; plugins: Plugin[] }

const script = await readFile(new URL('./docs-init.js', import.meta.url), 'utf8')

/** What the init script hands Swagger UI when the page is at `pageUrl`. */
function configAt(pageUrl: string): Config {
  const calls: Config[] = []
  runInNewContext(script, {
    URL,
    document: { baseURI: pageUrl },
    SwaggerUIBundle: (config: Config) => calls.push(config),
  })
  expect(calls).toHaveLength(1)
  return calls[0] as Config
}

/** The document as Swagger UI gets it once every plugin of the script has seen it, in order. */
function shownSpec(config: Config, spec: Spec): Spec {
  return config.plugins.reduce(
    (shown, plugin) =>
      plugin().statePlugins.spec.wrapActions.updateJsonSpec((given) => given)(shown),
    spec,
  )
}

describe('the init script of the docs page', () => {
  it.each([
    ['https://host.example/docs', 'https://host.example/openapi.json'],
    ['https://host.example/mail/docs', 'https://host.example/mail/openapi.json'],
    ['http://127.0.0.1:4001/docs#/default/listItems', 'http://127.0.0.1:4001/openapi.json'],
  ])('on a page at %s renders %s', (pageUrl, documentUrl) => {
    const config = configAt(pageUrl)
    expect(config.url).toBe(documentUrl)
    expect(config.dom_id).toBe('#swagger-ui')
    expect(config.validatorUrl).toBeNull()
  })

  it('sends the console to the folder of the page, so that a path prefix is kept', () => {
    const config = configAt('https://host.example/mail/docs')
    expect(shownSpec(config, { openapi: '3.1.0' })).toEqual({
      openapi: '3.1.0',
      servers: [{ url: 'https://host.example/mail/' }],
    })
  })

  it('shows the operations each path declares, and HEAD and OPTIONS in one line instead', () => {
    const config = configAt('https://host.example/docs')
    const ok = { responses: { 200: { description: 'OK' } } }
    const spec = {
      openapi: '3.1.0',
      servers: [{ url: 'https://api.example' }],
      info: { title: 'items', description: 'Movies.' },
      paths: {
        '/items': { get: ok, post: ok, head: ok, options: ok },
        '/healthz': { get: ok, head: ok, options: ok },
      },
    }
    const shown = shownSpec(config, spec)
    expect(shown.paths).toEqual({ '/items': { get: ok, post: ok }, '/healthz': { get: ok } })
    expect(shown.info).toEqual({
      title: 'items',
      description: expect.stringMatching(/^Movies\.\n\nEvery path also answers `HEAD`/),
    })
    expect(spec.paths['/items']).toHaveProperty('head')
  })

  it('keeps the servers a document names', () => {
    const config = configAt('https://host.example/mail/docs')
    const spec = { openapi: '3.1.0', servers: [{ url: 'https://api.example' }] }
    expect(shownSpec(config, spec)).toEqual(spec)
  })
})
