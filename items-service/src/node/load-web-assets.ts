import { readdir, readFile } from 'node:fs/promises'
import { mediaTypeOf, type WebAsset, type WebAssets } from '../web/web-assets.js'

/** Reads the built web app (one folder, no subfolders) into memory once, at start. */
export async function loadWebAssets(directory: URL): Promise<WebAssets> {
  const assets = new Map<string, WebAsset>()
  for (const name of await readdir(directory).catch(() => [])) {
    assets.set(name, { body: await readFile(new URL(name, directory)), type: mediaTypeOf(name) })
  }
  return assets
}
