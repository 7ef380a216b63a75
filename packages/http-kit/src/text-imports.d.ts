// What the files `swagger-ui-files.bundled.ts` imports `with { type: 'text' }` are to esbuild,
// its only importer: their text.
declare module 'swagger-ui-dist/swagger-ui.css' {
  const text: string
  export default text
}
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const text: string
  export default text
}
declare module '*/docs-init.js' {
  const text: string
  export default text
}
