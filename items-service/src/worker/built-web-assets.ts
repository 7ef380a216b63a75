import files from 'built-web-assets'
import { mediaTypeOf, type WebAssets } from '../web/web-assets.js'

/**
 * The built web app, held by the Worker's bundle itself (the build writes its files, base64,
 * into `dist-worker/web-assets.js`): a Worker has no file system to read them from.
 */
export function builtWebAssets(): WebAssets {
  return new Map(
    Object.entries(files).map(([name, base64]) => [
      name,
      {
        body: Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)),
        type: mediaTypeOf(name),
      },
    ]),
  )
}
