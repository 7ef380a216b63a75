import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/** Miniflare's `assets` option, as wrangler makes it from a configuration's `[assets]`. */
export type AssetsOption = { directory: string; routerConfig: { has_user_worker: true } }

/**
 * The static assets a micro's `wrangler.toml` configures (`[assets]`), as Miniflare takes them
 * and as `wrangler dev` hands them to it: the folder (relative to the file), served in front of
 * the Worker, which gets every request no file answers. None without `[assets]`. Any key but
 * `directory` throws, so that the tests never run a configuration other than the one deployed
 * (wrangler, which could read it, takes seconds to load: too long for every test file).
 * @example new Miniflare({ ...options, assets: assetsOf('items-service/wrangler.toml') })
 */
export function assetsOf(wranglerToml: string): AssetsOption | undefined {
  const text = readFileSync(wranglerToml, 'utf8')
  const section = /^\[assets\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text)?.[1]
  if (section === undefined) return undefined
  const settings = new Map(
    [...section.matchAll(/^([a-z_]+)\s*=\s*(.+?)\s*$/gm)].map((match) => [match[1], match[2]]),
  )
  for (const key of settings.keys()) {
    if (key !== 'directory') throw new Error(`${wranglerToml}: [assets] ${key} is not read here`)
  }
  const directory = /^"([^"]+)"$/.exec(settings.get('directory') ?? '')?.[1]
  if (directory === undefined) throw new Error(`${wranglerToml}: [assets] has no directory`)
  return {
    directory: resolve(dirname(wranglerToml), directory),
    routerConfig: { has_user_worker: true },
  }
}
