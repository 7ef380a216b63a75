// Servers loaded in turns: each in turn, the order turned by one every turn, so that a slow moment
// of the shared machine falls on each of them alike. A turn's runs give each server's rate over
// the bound's in that turn; a figure is the median of those ratios over the turns.
import { median } from './fixtures.mjs'
import { fixed } from './format.mjs'
import { load } from './load.mjs'

/**
 * `turns` turns of each of `servers` (by name), each run loaded with `plan(name)`; resolves with
 * every run, with its turn and its server's name.
 */
export async function loadInTurns(servers, plan, { turns, say, label }) {
  const names = Object.keys(servers)
  const runs = []
  for (let turn = 0; turn < turns; turn++) {
    const order = [...names.slice(turn % names.length), ...names.slice(0, turn % names.length)]
    for (const name of order) {
      runs.push({ turn, server: name, ...(await load(servers[name], plan(name))) })
    }
    const line = runs.slice(-names.length).map((run) => `${run.server} ${fixed(run.rps)}`)
    say(`${label}, turn ${turn + 1}: ${line.join(', ')} req/s`)
  }
  return runs
}

/** One server's runs taken together: all answers over all seconds, its CPU µs per answer. */
export function pooled(runs) {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0)
  const seconds = runs.reduce((sum, run) => sum + run.duration, 0)
  const cpu = runs.reduce((sum, run) => sum + run.cpu * run.duration, 0)
  const unexpected = runs.reduce((sum, run) => sum + run.unexpected + run.errors, 0)
  return { rps: requests / seconds, cpuMicros: (cpu / requests) * 1e6, unexpected }
}

/** The median over turns of `server`'s rate over `over`'s in the same turn, and its range. */
export function turnRatio(runs, server, over = 'bound') {
  const shares = []
  for (const run of runs.filter((one) => one.server === server)) {
    const bound = runs.find((one) => one.server === over && one.turn === run.turn)
    shares.push(run.rps / bound.rps)
  }
  return { median: median(shares), low: Math.min(...shares), high: Math.max(...shares) }
}
