// Makes a micro's built `dist` stand alone: `dist/package.json` (written by the build) lists the
// packages the bundle leaves out, and this installs them into `dist/node_modules`, so `dist` is
// all a host needs. Usage, from the repository or a micro's folder:
//   node scripts/package-micro.mjs items-service
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Writes `<dist>/package.json` for a bundle that imports `external` packages, each pinned to the
 * version package-lock.json holds, and `<dist>/package-lock.json` with the part of the
 * repository's lock they need, so the shipped packages, theirs included, are the ones the tests
 * ran with.
 * @param {string} dist the micro's output folder
 * @param {{ name: string, version: string }} micro the micro's own package.json
 * @param {string[]} external the packages the bundle leaves out
 */
export function writeDistManifest(dist, micro, external) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
  const locked = (name) => {
    const version = lock.packages[`node_modules/${name}`]?.version
    if (!version) throw new Error(`${name} is not in package-lock.json; run npm install`)
    return version
  }
  const manifest = {
    name: `${micro.name}-dist`,
    version: micro.version,
    private: true,
    type: 'module',
    engines: { node: '>=20.19' },
    scripts: { start: 'node server.js' },
    dependencies: Object.fromEntries(external.map((name) => [name, locked(name)])),
  }
  writeFileSync(join(dist, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  const packages = {
    '': { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies },
  }
  for (const path of neededPaths(lock.packages, external)) packages[path] = lock.packages[path]
  const distLock = {
    name: manifest.name,
    version: manifest.version,
    lockfileVersion: 3,
    requires: true,
    packages,
  }
  writeFileSync(join(dist, 'package-lock.json'), `${JSON.stringify(distLock, null, 2)}\n`)
}

/** The lock paths of `names` and of all they depend on, found the way Node finds a package. */
function neededPaths(locked, names) {
  const needed = new Set()
  const visit = (from, name) => {
    for (let dir = from; ; dir = dir.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
      const path = `${dir ? `${dir}/` : ''}node_modules/${name}`
      if (locked[path]) {
        if (needed.has(path)) return
        needed.add(path)
        const entry = locked[path]
        const peers = Object.keys(entry.peerDependencies ?? {}).filter(
          (peer) => !entry.peerDependenciesMeta?.[peer]?.optional,
        )
        const deps = [
          ...Object.keys(entry.dependencies ?? {}),
          ...Object.keys(entry.optionalDependencies ?? {}),
          ...peers,
        ]
        for (const dep of deps) visit(path, dep)
        return
      }
      if (!dir) return
    }
  }
  for (const name of names) visit('', name)
  return [...needed].sort()
}

/** Installs the packages `<dist>/package-lock.json` holds into `<dist>/node_modules`. */
function installDist(dist) {
  if (!existsSync(join(dist, 'package.json'))) {
    throw new Error(`${dist}/package.json is missing; build the micro first (npm run build)`)
  }
  // --no-workspaces: dist is a project of its own, not a member of the repository's workspace.
  // `install`, not `ci`: the repository's lock lacks some platforms' optional msgpackr-extract
  // binaries, which `ci` refuses; `install` keeps every version the lock gives and adds those.
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const args = ['install', '--omit=dev', '--no-audit', '--no-fund', '--no-workspaces']
  const result = spawnSync(npm, args, { cwd: dist, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed in ${dist}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const micro = process.argv[2]
  if (!micro) throw new Error('usage: node scripts/package-micro.mjs <micro folder>')
  installDist(resolve(micro, 'dist'))
}
