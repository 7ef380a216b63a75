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

globalThis.SwaggerUIBundle({
  url: new URL('openapi.json', pageFolder).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  // Nothing from elsewhere: no badge from the public validator.
  validatorUrl: null,
  plugins: [serverOfThePage],
})
