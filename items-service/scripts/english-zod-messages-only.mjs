/**
 * An esbuild plugin for the service's bundles: zod re-exports every language of its error
 * messages (`z.locales`); the service speaks English only, and the other languages were over half
 * of what start-up had to compile.
 */
export const englishZodMessagesOnly = {
  name: 'english-zod-messages-only',
  setup(builder) {
    builder.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('/zod/')
        ? { path: 'zod-locales', namespace: 'zod-locales' }
        : undefined,
    )
    builder.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js'",
      resolveDir: process.cwd(),
    }))
  },
}
