import { execFile, spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BuiltEntry } from '@movies-and-mail/test-kit'
import { afterEach, describe, expect, it } from 'vitest'

const root = new URL('../', import.meta.url)

/** A `$ ` command of a page's ```sh blocks, with the lines the page prints under it. */
type Example = { command: string; expected: string[]; line: number }

/** The examples of a page in order; a command goes on while its line ends with `\`. */
function examplesOf(markdown: string): Example[] {
  const examples: Example[] = []
  let inBlock = false
  let current: Example | undefined
  let continued = false
  for (const [index, line] of markdown.split('\n').entries()) {
    if (line.startsWith('```')) {
      inBlock = !inBlock && line.trim() === '```sh'
      current = undefined
      continue
    }
    if (!inBlock) continue
    if (continued && current) {
      current.command += `\n${line}`
    } else if (line.startsWith('$ ')) {
      current = { command: line.slice(2), expected: [], line: index + 1 }
      examples.push(current)
    } else {
      current?.expected.push(line)
      continue
    }
    continued = line.endsWith('\\')
  }
  return examples
}

/**
 * What differs from run to run: times, and ids, tags, cursors and event ids (12 or more URL-safe
 * characters, a digit among them).
 */
const token = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z|[A-Za-z0-9_-]{12,}/g
const isVariable = (text: string) => /\d/.test(text)
const valuePattern = (text: string) => (text.endsWith('Z') ? '([0-9T:.Z-]+)' : '([A-Za-z0-9_-]+)')
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The page's ids, tags and cursors, each bound to what this run answered in its place. */
class Bindings {
  readonly #values = new Map<string, string>()

  /** Whether `actual` is `expected` with each variable bound, the same way every time. */
  match(expected: string, actual: string): boolean {
    const names: string[] = []
    let pattern = ''
    let last = 0
    for (const found of expected.matchAll(token)) {
      if (!isVariable(found[0])) continue
      pattern += `${literal(expected.slice(last, found.index))}${valuePattern(found[0])}`
      names.push(found[0])
      last = found.index + found[0].length
    }
    const result = new RegExp(`^${pattern}${literal(expected.slice(last))}$`).exec(actual)
    if (!result) return false
    const fresh = new Map<string, string>()
    for (const [index, name] of names.entries()) {
      const bound = this.#values.get(name) ?? fresh.get(name)
      if (bound !== undefined && bound !== result[index + 1]) return false
      fresh.set(name, result[index + 1] as string)
    }
    for (const [name, value] of fresh) this.#values.set(name, value)
    return true
  }

  /** `command` with the page's ids and tags replaced by this run's. */
  apply(command: string): string {
    return command.replace(token, (text) => this.#values.get(text) ?? text)
  }
}

const lines = (text: string) => {
  const all = text.replaceAll('\r', '').split('\n')
  while (all.at(-1) === '') all.pop()
  return all
}

const splitAtBlank = (all: string[]) => {
  const blank = all.indexOf('')
  return blank === -1 ? [all, []] : [all.slice(0, blank), all.slice(blank + 1)]
}

const sameLines = (expected: string[], actual: string[], bindings: Bindings) =>
  expected.length === actual.length &&
  expected.every((line, index) => bindings.match(line, actual[index] as string))

/**
 * Whether a command printed what the page shows. After a status line, the headers shown must be
 * among those printed (`...` stands for the others) and the body, when shown, must be all of it.
 */
function printedAsShown(shown: string[], output: string, bindings: Bindings): boolean {
  const expected = lines(shown.join('\n'))
  const actual = lines(output)
  if (!expected[0]?.startsWith('HTTP/')) return sameLines(expected, actual, bindings)
  const [head = [], body = []] = splitAtBlank(actual)
  const [shownHead = [], shownBody = []] = splitAtBlank(expected)
  if (!bindings.match(shownHead[0] as string, head[0] ?? '')) return false
  for (const header of shownHead.slice(1)) {
    if (header === '...') continue
    const name = header.slice(0, header.indexOf(':') + 1).toLowerCase()
    const found = head.some(
      (line) =>
        line.toLowerCase().startsWith(name) &&
        bindings.match(header.slice(name.length), line.slice(name.length)),
    )
    if (!found) return false
  }
  return shownBody.length === 0 || sameLines(shownBody, body, bindings)
}

/** What a shell prints for `command`, whatever its exit status (`--max-time` ends with 28). */
function shell(command: string): Promise<string> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { timeout: 15_000 }, (_error, stdout) => resolve(stdout))
  })
}

const hasCurl = spawnSync('curl', ['--version']).status === 0
if (!hasCurl) console.warn('docs examples: skipped, curl is not installed')

let stop: (() => Promise<void>) | undefined
afterEach(async () => {
  await stop?.()
  stop = undefined
})

/** Each page whose examples are replayed, the micro they call, and how the page names it. */
const pages = [
  { page: 'docs/items-service.md', micro: 'items-service', origin: 'localhost:4000', env: {} },
  { page: 'docs/tutorial.md', micro: 'items-service', origin: 'localhost:4000', env: {} },
  {
    page: 'docs/mail-service.md',
    micro: 'mail-service',
    origin: 'localhost:4001',
    env: { API_KEYS: 'my-mail-api-key-1' },
  },
]

describe.skipIf(!hasCurl).each(pages)('the examples of $page', ({ page, micro, origin, env }) => {
  it('print what the page shows, run in order against a fresh store', async () => {
    const examples = examplesOf(await readFile(new URL(page, root), 'utf8'))
    expect(examples.length).toBeGreaterThan(2)
    const dataDir = await mkdtemp(join(tmpdir(), 'docs-examples-'))
    const service = await BuiltEntry.start(new URL(`${micro}/dist/server.js`, root), {
      cwd: new URL(`${micro}/`, root),
      env: { ...env, DATA_DIR: dataDir },
      inherit: ['PATH'],
    })
    stop = async () => {
      await service.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
    const bindings = new Bindings()
    const host = new URL(service.url).host
    for (const { command, expected, line } of examples) {
      const output = await shell(bindings.apply(command).replaceAll(origin, host))
      if (!printedAsShown(expected, output, bindings)) {
        expect(`${page}:${line}: ${command}\n${output}`).toBe(
          `${page}:${line}: ${command}\n${expected.join('\n')}`,
        )
      }
    }
  })
})
