import { fileURLToPath } from 'node:url'

/**
 * The settings that start a built entry with its clock `ms` ahead of the machine's: a preload
 * (`clock-ahead.cjs`) moves `Date.now()` and `new Date()`, as on a host whose clock is off.
 * @example await BuiltEntry.start('dist/server.js', { env: { ...settings, ...clockAhead(30_000) } })
 */
export function clockAhead(ms: number): Record<string, string> {
  const preload = fileURLToPath(new URL('./clock-ahead.cjs', import.meta.url))
  return { NODE_OPTIONS: `--require ${JSON.stringify(preload)}`, CLOCK_AHEAD_MS: String(ms) }
}
