import { parser } from '@prometheus-io/lezer-promql'
import { parse as parseYaml } from 'yaml'

/** One PromQL expression of a page, and where the page writes it. */
export type DocumentedExpression = { expression: string; where: string }

type Tree = ReturnType<typeof parser.parse>
type SyntaxNode = Tree['topNode']

/** A vector selector of an expression: its metric's name and the labels it matches on. */
export type Selector = { metric: string; labels: string[] }

/** What the Prometheus project's own grammar makes of an expression. */
export type ParsedExpression = {
  /** Each error node: its offset, and the line and column it falls on (1-based). */
  errors: { offset: number; line: number; column: number }[]
  selectors: Selector[]
  /** Each aggregation's `by (...)`/`without (...)` labels, with the selectors it aggregates. */
  groupings: { labels: string[]; selectors: Selector[] }[]
}

/** The fenced blocks of a page whose info string is `language`, with the line each opens on. */
export function fencedBlocks(markdown: string, language: string) {
  const lines = markdown.split('\n')
  const blocks: { body: string; line: number }[] = []
  for (let at = 0; at < lines.length; at++) {
    if (lines[at]?.trim() !== `\`\`\`${language}`) continue
    const end = lines.findIndex((line, index) => index > at && line.trim() === '```')
    if (end === -1) throw new Error(`the \`\`\`${language} block at line ${at + 1} is never closed`)
    blocks.push({ body: lines.slice(at + 1, end).join('\n'), line: at + 1 })
    at = end
  }
  return blocks
}

/**
 * The expressions of the page's ```promql blocks: each run of lines that are neither blank nor
 * a `#` comment is one expression (as the page sets a comment over each).
 */
export function promqlBlockExpressions(markdown: string): DocumentedExpression[] {
  return fencedBlocks(markdown, 'promql').flatMap(({ body, line }) => {
    const found: DocumentedExpression[] = []
    let run: string[] = []
    const endRun = (at: number) => {
      if (run.length > 0)
        found.push({
          expression: run.join('\n'),
          where: `the expression at line ${at - run.length}`,
        })
      run = []
    }
    body.split('\n').forEach((text, index) => {
      if (text.trim() === '' || text.trim().startsWith('#')) endRun(line + index + 1)
      else run.push(text)
    })
    endRun(line + body.split('\n').length + 1)
    return found
  })
}

/** The page's ```yaml blocks that are Prometheus rule files (a `groups` key), parsed. */
export function ruleFilesIn(markdown: string): { file: unknown; line: number }[] {
  return fencedBlocks(markdown, 'yaml')
    .map(({ body, line }) => ({ file: parseYaml(body) as unknown, line }))
    .filter(({ file }) => typeof file === 'object' && file !== null && 'groups' in file)
}

const textOf = (source: string, node: SyntaxNode | null) =>
  node ? source.slice(node.from, node.to) : ''

/** A string literal's value: PromQL's quotes, double, single or back, around it. */
const unquoted = (literal: string) => literal.slice(1, -1).replace(/\\(.)/g, '$1')

function selectorOf(source: string, node: SyntaxNode): Selector {
  const matchers = node.getChild('LabelMatchers')
  const labels: string[] = []
  let metric = textOf(source, node.getChild('Identifier'))
  for (let matcher = matchers?.firstChild; matcher; matcher = matcher.nextSibling) {
    const label = textOf(source, matcher.getChild('LabelName'))
    if (label === '__name__') metric = unquoted(textOf(source, matcher.getChild('StringLiteral')))
    else if (label) labels.push(label)
  }
  return { metric, labels }
}

/**
 * Parses `expression` with `@prometheus-io/lezer-promql`, the grammar Prometheus' own web UI
 * parses PromQL with, and reads from its tree what a scrape must offer: each selector's metric
 * and labels, each aggregation's grouping labels.
 */
export function parsePromql(expression: string): ParsedExpression {
  const errors: ParsedExpression['errors'] = []
  const selectors: (Selector & { at: number })[] = []
  const aggregations: { labels: string[]; from: number; to: number }[] = []
  parser.parse(expression).iterate({
    enter: ({ type, from, to, node }) => {
      if (type.isError) {
        const before = expression.slice(0, from).split('\n')
        errors.push({ offset: from, line: before.length, column: (before.at(-1)?.length ?? 0) + 1 })
      } else if (type.name === 'VectorSelector') {
        selectors.push({ ...selectorOf(expression, node), at: from })
      } else if (type.name === 'AggregateExpr') {
        const grouping = node.getChild('AggregateModifier')?.getChild('GroupingLabels')
        const labels = (grouping?.getChildren('LabelName') ?? []).map((label) =>
          textOf(expression, label),
        )
        if (labels.length > 0) aggregations.push({ labels, from, to })
      }
    },
  })
  const plain = ({ metric, labels }: Selector) => ({ metric, labels })
  return {
    errors,
    selectors: selectors.map(plain),
    groupings: aggregations.map(({ labels, from, to }) => ({
      labels,
      selectors: selectors.filter(({ at }) => at >= from && at < to).map(plain),
    })),
  }
}
