// The module the build writes for the Worker (an alias of the Worker's build, scripts/build.mjs): each file of the built web
// app by name, base64.
declare module 'built-web-assets' {
  const files: Record<string, string>
  export default files
}
