/** A file the web app needs, with its media type. */
export type WebAsset = { body: Uint8Array; type: string }

/** The built web app by URL path under /assets/, e.g. `app.js`. */
export type WebAssets = ReadonlyMap<string, WebAsset>

const mediaTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
}

/** The media type for a file name, by its extension. */
export function mediaTypeOf(fileName: string): string {
  const extension = fileName.slice(fileName.lastIndexOf('.'))
  return mediaTypes[extension] ?? 'application/octet-stream'
}
