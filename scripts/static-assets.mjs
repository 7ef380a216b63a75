// Writes a micro's static files for Workers Static Assets, taken from its built Node entry's own
// answers: the build starts `node dist/server.js` on a loopback port, asks it for each file, and
// writes the bytes beside a `_headers` file holding the headers those answers carried. The
// platform then serves the same bytes with the same Content-Type, Content-Security-Policy,
// nosniff and Cache-Control as Node does, made by the same code, without running the Worker.
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/**
 * What describes a file and guards it. The rest of a Node answer is per request (`x-request-id`,
 * `date`), per connection, CORS (a static file is read by the page of its own origin), or the
 * entity tag, for which the platform gives one of its own.
 */
const keptHeaders = [
  'content-type',
  'cache-control',
  'content-security-policy',
  'referrer-policy',
  'x-content-type-options',
]

/** The paths a page loads from its own service (`src` and `href`), as written: relative or not. */
function loadedBy(html) {
  return [...html.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="([^"]+)"/g)]
    .map((match) => match[1])
    .filter((url) => !/^[a-z]+:/i.test(url))
}

/**
 * Where the platform finds a file for `path`: an HTML page at a path without an extension is
 * `<path>.html` (wrangler's default `html_handling` serves `/docs.html` at `/docs`).
 */
function fileFor(path, type) {
  const named = /\.[a-z\d]+$/i.test(path) || !type.startsWith('text/html')
  return named ? path.slice(1) : `${path.slice(1)}.html`
}

/** Starts `node entry` with `env` only (and PATH); resolves with its URL and a stop function. */
async function startEntry(entry, cwd, env) {
  const child = spawn(process.execPath, [entry], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not listen:\n${output}`)), 20_000)
    const read = (text) => {
      output += text
      const listening = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)
      if (listening) {
        clearTimeout(timer)
        resolve(listening[1])
      }
    }
    child.stdout.setEncoding('utf8').on('data', read)
    child.stderr.setEncoding('utf8').on('data', read)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${entry} exited with ${code} before listening:\n${output}`))
    })
  })
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('close', resolve))
    child.kill('SIGTERM')
    await exited
  }
  return { url, stop }
}

/**
 * Writes `dir` (emptied first): every file of `paths` and of the pages among them (what a page
 * loads, at the URL it names, so that a versioned URL's Cache-Control is the one kept), as the
 * built Node entry `entry` answers it with `env`, and `_headers` with their headers.
 * @param {{ entry: string, cwd: string, env?: Record<string, string>, paths: string[], dir: string }} options
 * @returns {Promise<{ path: string, file: string, bytes: number }[]>} what was written
 */
export async function writeStaticAssets({ entry, cwd, env = {}, paths, dir }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'static-assets-'))
  const service = await startEntry(entry, cwd, { DATA_DIR: dataDir, ...env })
  try {
    await rm(dir, { recursive: true, force: true })
    const written = []
    const rules = []
    const queue = [...paths]
    const seen = new Set()
    while (queue.length > 0) {
      const url = new URL(queue.shift(), service.url)
      if (seen.has(url.pathname)) continue
      seen.add(url.pathname)
      const answer = await fetch(url)
      if (answer.status !== 200)
        throw new Error(`GET ${url.pathname}${url.search}: ${answer.status}`)
      const type = answer.headers.get('content-type') ?? ''
      const body = new Uint8Array(await answer.arrayBuffer())
      if (type.startsWith('text/html')) {
        for (const loaded of loadedBy(new TextDecoder().decode(body))) {
          queue.push(new URL(loaded, url).href)
        }
      }
      const file = fileFor(url.pathname, type)
      await mkdir(dirname(join(dir, file)), { recursive: true })
      await writeFile(join(dir, file), body)
      written.push({ path: url.pathname, file, bytes: body.length })
      const headers = keptHeaders.flatMap((name) => {
        const value = answer.headers.get(name)
        return value === null ? [] : [`  ${name}: ${value}`]
      })
      rules.push(url.pathname, ...headers)
    }
    const note = `# Written by the build (scripts/static-assets.mjs) from ${entry}'s own answers.`
    await writeFile(join(dir, '_headers'), `${[note, ...rules].join('\n')}\n`)
    return written
  } finally {
    await service.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}
