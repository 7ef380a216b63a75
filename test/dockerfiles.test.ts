import { existsSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// No Docker here: the Dockerfiles are read, not built. What is checked is what a review would.

type Instruction = { keyword: string; args: string }

const root = fileURLToPath(new URL('../', import.meta.url))

/** The instructions of a Dockerfile, continuation lines joined and comments left out. */
function instructions(text: string): Instruction[] {
  const lines = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
  return lines
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/)
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') }
    })
}

/** `ENV A=1 B=2` as a record (the `ENV A 1` form is not used here). */
const envOf = (all: Instruction[]) =>
  Object.fromEntries(
    all
      .filter(({ keyword }) => keyword === 'ENV')
      .flatMap(({ args }) => args.split(/\s+/).map((pair) => pair.split('=') as [string, string])),
  )

describe.each([
  ['items-service', '4000'],
  ['mail-service', '4001'],
])('%s/Dockerfile', (micro, port) => {
  const all = instructions(readFileSync(join(root, micro, 'Dockerfile'), 'utf8'))
  const last = (keyword: string) => all.findLast((step) => step.keyword === keyword)?.args
  const env = envOf(all)

  it('starts from node:20-slim in a single stage', () => {
    expect(all.filter(({ keyword }) => keyword === 'FROM').map(({ args }) => args)).toEqual([
      'node:20-slim',
    ])
  })

  it('runs as a user other than root', () => {
    expect(last('USER')).toBeDefined()
    expect(last('USER')).not.toMatch(/^(root|0)(:|$)/)
  })

  it('listens on every interface, on the port it exposes', () => {
    expect(env.HOST).toBe('0.0.0.0')
    expect(env.PORT).toBe(port)
    expect(last('EXPOSE')).toBe(port)
  })

  it('keeps DATA_DIR on a volume', () => {
    expect(env.DATA_DIR).toBeDefined()
    const volumes = last('VOLUME')
      ?.replace(/[[\]"]/g, '')
      .split(/[\s,]+/)
    expect(volumes).toContain(env.DATA_DIR)
  })

  it('copies only the packaged output', () => {
    const sources = all
      .filter(({ keyword }) => keyword === 'COPY' || keyword === 'ADD')
      .map(({ keyword, args }) => ({
        keyword,
        paths: args.split(/\s+/).filter((a) => !a.startsWith('--')),
      }))
    expect(sources.map(({ keyword }) => keyword)).toEqual(['COPY'])
    for (const { paths } of sources) {
      for (const source of paths.slice(0, -1)) expect(source).toMatch(/^dist(\/|$)/)
    }
    const ignored = readFileSync(join(root, micro, '.dockerignore'), 'utf8')
    expect(ignored.split('\n').filter((line) => line && !line.startsWith('#'))).toEqual(
      expect.arrayContaining(['*', '!dist']),
    )
  })

  it('runs the packaged entry, copied from dist into its working directory', () => {
    const command = JSON.parse(last('CMD') ?? 'null') as string[]
    expect(command).toEqual(['node', 'server.js'])
    const copy = all.find(({ keyword }) => keyword === 'COPY')?.args.split(/\s+/) ?? []
    const destination = posix.resolve(last('WORKDIR') ?? '/', copy.at(-1) ?? '')
    expect(posix.resolve(last('WORKDIR') ?? '/', 'server.js')).toBe(`${destination}/server.js`)
    expect(existsSync(join(root, micro, 'dist/server.js')), 'build the micro first').toBe(true)
  })
})
