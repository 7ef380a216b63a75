/** A value as workerd's console prints it in an object: a quoted string, a number, a word. */
function printedValue(text: string): unknown {
  const quoted = /^(['"`])(.*)\1$/.exec(text)
  if (quoted) return (quoted[2] ?? '').replace(/\\(.)/g, '$1')
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text)) return Number(text)
  if (text === 'true' || text === 'false') return text === 'true'
  return text === 'undefined' ? undefined : text
}

/**
 * The flat objects a Worker logged with `console.log({...})`, as workerd prints them to its
 * stdout under Miniflare (one field a line between `{` and `}`, strings quoted): what Workers
 * Logs would index. Objects printed on one line (short ones) are read too.
 * @example consoleObjectsIn(worker.stdout).filter((entry) => entry.requestId === id)
 */
export function consoleObjectsIn(stdout: string): Record<string, unknown>[] {
  const blocks = stdout.match(/^\{(?: [^\n]*? \}|\n[\s\S]*?\n\})$/gm) ?? []
  return blocks.map((block) => {
    const body = block.slice(1, -1).trim()
    const fields = body.split(/,\n\s*|,\s(?=\w+: )/)
    const entry: Record<string, unknown> = {}
    for (const field of fields) {
      const match = /^\s*(\w+): ([\s\S]*?),?$/.exec(field)
      if (match) entry[match[1] as string] = printedValue((match[2] ?? '').trim())
    }
    return entry
  })
}

/** What the Analytics Engine stand-in prints for each data point it is given. */
const dataPointMark = 'analytics-engine data point '

/**
 * A Worker for Miniflare's `workers` that stands in for a Workers Analytics Engine dataset:
 * bound to the Worker under test with `wrappedBindings: { ANALYTICS: { scriptName } }`, its
 * `writeDataPoint` prints each point on the console (Miniflare drops them), so that a test reads
 * what the Worker sent (`dataPointsIn`).
 */
export const analyticsEngineStandIn = {
  name: 'analytics-engine-stand-in',
  modules: true,
  script: `export default function () {
  return { writeDataPoint(point) { console.log(${JSON.stringify(dataPointMark)} + JSON.stringify(point ?? {})) } }
}`,
} as const

/** A data point as the Worker wrote it. */
export type DataPoint = { indexes?: string[]; blobs?: string[]; doubles?: number[] }

/** The data points the Analytics Engine stand-in printed to `stdout`, in order. */
export function dataPointsIn(stdout: string): DataPoint[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith(dataPointMark))
    .map((line) => JSON.parse(line.slice(dataPointMark.length)) as DataPoint)
}
