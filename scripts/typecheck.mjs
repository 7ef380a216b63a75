// Type-checks every workspace that has a `typecheck` script, and the tests' project (`test/`),
// in a `tsc` program per service, as many at a time as the machine has cores. A program checks
// everything its files import, so a service's program re-checks each package it is built from:
// one `tsc` per workspace checked the shared packages up to five times (80 s of CPU on two
// cores). The projects whose tsconfig.json only extends the base options (and lists what it
// includes) join the services' programs; a project with options of its own (the clients: no
// Node types) runs its own `typecheck` script. Each check's output is printed whole when it
// ends, under its name; the exit code is 1 when any failed.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const tsc = join(root, 'node_modules/typescript/bin/tsc')
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'))
const lanes = availableParallelism()

/**
 * Each project: its folder, its `typecheck` script (the tests' project has none), and what it
 * includes when it may join a shared program: its script only runs `tsc` on its tsconfig.json,
 * which only extends the base options and lists what it includes.
 */
const projects = [
  ...readJson('package.json').workspaces.flatMap((dir) => {
    const script = readJson(join(dir, 'package.json')).scripts?.typecheck
    return typeof script === 'string' ? [{ dir, script }] : []
  }),
  { dir: 'test', script: undefined },
].map(({ dir, script }) => {
  const config = readJson(join(dir, 'tsconfig.json'))
  const joins =
    (script === undefined || script === 'tsc -p tsconfig.json') &&
    /^(\.\.\/)+tsconfig\.base\.json$/.test(config.extends) &&
    Object.keys(config).every((key) => key === 'extends' || key === 'include')
  return { dir, script, include: joins ? config.include.map((path) => join(dir, path)) : undefined }
})

/** How many TypeScript files a project includes: a rough weight to share the programs out evenly. */
const weight = ({ include }) =>
  include
    .filter((path) => existsSync(join(root, path)))
    .flatMap((path) => readdirSync(join(root, path), { recursive: true }))
    .filter((name) => String(name).endsWith('.ts')).length

// A program per service: each declares its own types of `cloudflare:workers`, which two in one
// program would merge. The packages and the tests' project join the program with fewer files.
const joining = projects.filter((project) => project.include)
const isService = ({ dir }) => !dir.startsWith('packages/') && dir !== 'test'
const programs = joining
  .filter(isService)
  .map((service) => ({ dirs: [service.dir], include: [...service.include], w: weight(service) }))
for (const project of joining.filter((project) => !isService(project))) {
  const lightest = programs.reduce((a, b) => (b.w < a.w ? b : a))
  lightest.dirs.push(project.dir)
  lightest.include.push(...project.include)
  lightest.w += weight(project)
}

// The joint configurations go under node_modules, where `types: ["node"]` resolves as it does
// from the root, and nothing is committed.
const cache = join(root, 'node_modules/.cache/typecheck')
mkdirSync(cache, { recursive: true })
const checks = [
  ...programs.map(({ dirs, include }, i) => {
    const path = join(cache, `tsconfig.${i}.json`)
    const config = {
      extends: join(root, 'tsconfig.base.json'),
      include: include.map((p) => join(root, p)),
    }
    writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`)
    return [dirs.join(' + '), process.execPath, [tsc, '-p', path]]
  }),
  ...projects
    .filter((project) => !project.include)
    .map(({ dir, script }) =>
      script === undefined
        ? [dir, process.execPath, [tsc, '-p', dir]]
        : [dir, 'npm', ['run', '-s', 'typecheck', '-w', dir]],
    ),
]

/** Runs one check; resolves to whether it passed, after printing what it wrote. */
function check([name, command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    const output = []
    child.stdout.on('data', (chunk) => output.push(chunk))
    child.stderr.on('data', (chunk) => output.push(chunk))
    // A command that cannot start ends with 'error', then 'close' with no exit code of 0.
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)))
    child.on('close', (code) => {
      const text = Buffer.concat(output).toString('utf8').trim()
      const passed = code === 0
      console.log(`${passed ? 'ok' : 'FAILED'}: typecheck ${name}${text ? `\n${text}` : ''}`)
      resolve(passed)
    })
  })
}

const queue = [...checks]
let failed = 0
await Promise.all(
  Array.from({ length: Math.min(lanes, queue.length) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (!(await check(next))) failed += 1
    }
  }),
)
if (failed > 0) {
  console.error(`${failed} of ${checks.length} type checks failed`)
  process.exitCode = 1
}
