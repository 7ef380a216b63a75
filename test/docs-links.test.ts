import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../', import.meta.url))

/** The repository's files: tracked or new, never ignored ones (a build output is no link target). */
const files = new Set(
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((path) => path && existsSync(join(root, path))),
)
const folders = new Set(
  [...files].flatMap((path) => {
    const parts = path.split('/')
    return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join('/'))
  }),
)

/** Every page of the repository: the README, DESIGN.md, docs/ and notes pages, each README. */
const pages = [...files].filter((path) => path.endsWith('.md')).sort()

/** A page without its fenced blocks: what they hold is neither a link nor a heading. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^[ \t]*(```+|~~~+)[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm, '')
}

/** The text a reader sees as prose: code spans hold no links either. */
const prose = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, '')

/** Every link target of a page: inline links and images, reference definitions, HTML links. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown)
  return [
    ...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
    ...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm),
    ...text.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g),
  ].map((match) => match[1] as string)
}

/** A heading as a reader sees it: a link as its text, no code or emphasis marks. */
const headingText = (heading: string) =>
  heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function slugOf(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** The headings of a page, as written. */
const headingsOf = (markdown: string) =>
  [...withoutFences(markdown).matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)].map(
    (match) => match[1] as string,
  )

/** The anchors of a page: one per heading (repeats get -1, -2, ...), and HTML ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const heading of headingsOf(markdown)) {
    const slug = slugOf(heading)
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  for (const [, id] of markdown.matchAll(/<a\s[^>]*?(?:id|name)="([^"]+)"/g))
    anchors.add(id as string)
  return anchors
}

const read = (path: string) => readFileSync(join(root, path), 'utf8')

/** What is wrong with a link from `page`, or undefined when it resolves. */
function brokenLink(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined // another site: not checked here
  const [pathPart = '', anchor] = target.split('#', 2)
  const decoded = decodeURIComponent(pathPart)
  const path =
    decoded === ''
      ? page
      : posix
          .normalize(
            decoded.startsWith('/') ? decoded.slice(1) : posix.join(posix.dirname(page), decoded),
          )
          .replace(/\/$/, '')
  if (path.startsWith('..') || !(files.has(path) || folders.has(path) || path === '.')) {
    return `${target}: no such file in the repository`
  }
  if (anchor === undefined || !path.endsWith('.md')) return undefined
  if (!anchorsOf(read(path)).has(anchor)) return `${target}: ${path} has no heading #${anchor}`
  return undefined
}

/**
 * Where a source names a page's heading, as `<page>.md › <heading>` (the page from the
 * repository's root, then the heading as a reader sees it): each page and heading named. In
 * parentheses, `(<page>.md › <heading>)`, the heading ends at the `)`, which may come on one of
 * the next two lines of a comment (their leaders, `//`, `*` or `#`, are not part of it);
 * otherwise at the line's end. Written `\u203a` here, so that this file's own examples are not
 * taken for references.
 */
function headingReferences(source: string): { page: string; heading: string }[] {
  return [...source.matchAll(/(\(?)([\w./-]+\.md) \u203a ([^\n]*)/g)].map((match) => {
    const [whole, opened, page, line = ''] = match
    const from = (match.index ?? 0) + whole.length - line.length
    const closed = opened ? /^[^)]*(?=\))/.exec(source.slice(from, from + 300))?.[0] : undefined
    const text = closed !== undefined && closed.split('\n').length <= 3 ? closed : line
    return {
      page: page as string,
      heading: text.replace(/\n[ \t]*(?:\/\/+|\*|#+)?[ \t]*/g, ' ').replace(/[\s.,;:]+$/, ''),
    }
  })
}

/** What is wrong with a source's reference to a heading, or undefined when the heading exists. */
function brokenHeadingReference(
  { page, heading }: { page: string; heading: string },
  readPage: (path: string) => string | undefined,
): string | undefined {
  const markdown = readPage(page)
  if (markdown === undefined) return `${page} \u203a ${heading}: no such page`
  if (headingsOf(markdown).some((each) => headingText(each) === heading)) return undefined
  return `${page} \u203a ${heading}: ${page} has no such heading`
}

/** The sources that may name a heading: every text file of the repository but the pages. */
const sources = [...files].filter(
  (path) =>
    !path.endsWith('.md') && !/\.(png|svg|ico|woff2?)$|(^|\/)package-lock\.json$/.test(path),
)
const pageText = (path: string) => (files.has(path) ? read(path) : undefined)

describe('links in the documentation', () => {
  it('covers the README, DESIGN.md, the docs pages, the notes and bench/README.md', () => {
    for (const page of [
      'README.md',
      'DESIGN.md',
      'bench/README.md',
      'docs/items-service.md',
      'docs/mail-service.md',
      'docs/web-app.md',
      'docs/deployment.md',
      'docs/operations.md',
      'docs/notes/worker-measurements.md',
    ]) {
      expect(pages).toContain(page)
    }
  })

  it('makes the anchors GitHub makes', () => {
    expect(slugOf('Live changes: `GET /items/events`')).toBe('live-changes-get-itemsevents')
    expect(slugOf('Retries and floods: Idempotency-Key and rate limits')).toBe(
      'retries-and-floods-idempotency-key-and-rate-limits',
    )
    expect(slugOf('The [web page](docs/web-app.md), on **Node** 20')).toBe(
      'the-web-page-on-node-20',
    )
    expect([...anchorsOf('# Settings\n```sh\n# not a heading\n```\n## Settings\n')]).toEqual([
      'settings',
      'settings-1',
    ])
  })

  it.each(pages)('%s: every relative link and anchor resolves', (page) => {
    const broken = linkTargets(read(page))
      .map((target) => brokenLink(page, target))
      .filter((problem) => problem !== undefined)
    expect(broken).toEqual([])
  })

  it('reads the heading a source names, and finds one that is not there', () => {
    const source = [
      '// the query string (docs/items-service.md \u203a Query): its parameters',
      ' * copied twice (bench/README.md \u203a On the Workers runtime).',
      '# see docs/operations.md \u203a Backups',
      '// its cost (bench/README.md \u203a Where the start',
      '//   goes), so it is left out.',
      ' * the rest (docs/scaling-out.md \u203a Workers; and',
      ' * more) after it.',
    ].join('\n')
    const references = headingReferences(source)
    expect(references).toEqual([
      { page: 'docs/items-service.md', heading: 'Query' },
      { page: 'bench/README.md', heading: 'On the Workers runtime' },
      { page: 'docs/operations.md', heading: 'Backups' },
      { page: 'bench/README.md', heading: 'Where the start goes' },
      { page: 'docs/scaling-out.md', heading: 'Workers; and more' },
    ])
    const page = '# Title\n\n## Live changes: `GET /items/events`\n\n```sh\n# Fenced\n```\n'
    const readPage = (path: string) => (path === 'docs/a.md' ? page : undefined)
    const check = (heading: string, at = 'docs/a.md') =>
      brokenHeadingReference({ page: at, heading }, readPage)
    expect(check('Live changes: GET /items/events')).toBeUndefined()
    expect(check('Title')).toBeUndefined()
    expect(check('Live changes')).toBe(
      'docs/a.md \u203a Live changes: docs/a.md has no such heading',
    )
    expect(check('Fenced')).toBe('docs/a.md \u203a Fenced: docs/a.md has no such heading')
    expect(check('Title', 'docs/b.md')).toBe('docs/b.md \u203a Title: no such page')
  })

  it.each(sources.filter((path) => headingReferences(read(path)).length > 0))(
    '%s: every heading it names exists',
    (source) => {
      const broken = headingReferences(read(source))
        .map((reference) => brokenHeadingReference(reference, pageText))
        .filter((problem) => problem !== undefined)
      expect(broken).toEqual([])
    },
  )
})
