// Renders Swagger UI for the service's OpenAPI document. The docs page loads this file after
// swagger-ui-bundle.js: its policy runs no inline script, so the settings live here.

// The folder the page is in: `/` for `/docs`, `/mail/` for `/mail/docs` behind a path prefix.
const pageFolder = new URL('.', document.baseURI).href

// A document without `servers` sends Swagger UI's requests to the root of the origin, which
// behind a path prefix is another service; the page's folder is where this service answers.
const serverOfThePage = () => ({
  statePlugins: {
    spec: {
      wrapActions: {
        updateJsonSpec: (update) => (spec) =>
          update(spec?.servers?.length ? spec : { ...spec, servers: [{ url: pageFolder }] }),
      },
    },
  },
})

// The document lists HEAD and OPTIONS under every path, for the tools that read it; a person
// reading the page wants the operations a path was written for, and a line on the rest.
const implicitMethods = ['head', 'options']
const implicitMethodsNote =
  'Every path also answers `HEAD` where it answers `GET`, and `OPTIONS` (204 with `Allow`); a ' +
  'method a path lacks answers 405 with `Allow`. [openapi.json](openapi.json) lists them.'
const implicitMethodsOutOfTheWay = () => ({
  statePlugins: {
    spec: {
      wrapActions: {
        updateJsonSpec: (update) => (spec) => {
          if (!spec?.paths) return update(spec)
          const paths = Object.fromEntries(
            Object.entries(spec.paths).map(([path, item]) => [
              path,
              Object.fromEntries(
                Object.entries(item).filter(([method]) => !implicitMethods.includes(method)),
              ),
            ]),
          )
          const description = [spec.info?.description, implicitMethodsNote]
            .filter(Boolean)
            .join('\n\n')
          return update({ ...spec, paths, info: { ...spec.info, description } })
        },
      },
    },
  },
})

globalThis.SwaggerUIBundle({
  url: new URL('openapi.json', pageFolder).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  // Nothing from elsewhere: no badge from the public validator.
  validatorUrl: null,
  plugins: [serverOfThePage, implicitMethodsOutOfTheWay],
})
