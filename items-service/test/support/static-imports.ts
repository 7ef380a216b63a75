import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The modules of a Worker's upload (in `dir`) that `name` imports as it loads (`import … from`,
 * not `import()`), and theirs, by file name, `name` included: what evaluating it evaluates.
 */
export async function staticImports(
  dir: string,
  name: string,
  seen = new Set<string>(),
): Promise<Set<string>> {
  seen.add(name)
  const code = await readFile(join(dir, name), 'utf8')
  for (const [, imported] of code.matchAll(
    /(?:^|[;}\s])import\s*(?:[^"'()]*?from\s*)?["']\.\/([\w.-]+)["']/g,
  )) {
    if (imported && !seen.has(imported)) await staticImports(dir, imported, seen)
  }
  return seen
}
