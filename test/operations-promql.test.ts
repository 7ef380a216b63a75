import { readFile } from 'node:fs/promises'
import { ScrapedMetrics } from '@movies-and-mail/test-kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltMicro } from './support/built-micro.js'
import type { MicroProcess } from './support/micro-process.js'
import {
  type DocumentedExpression,
  parsePromql,
  promqlBlockExpressions,
  ruleFilesIn,
  type Selector,
} from './support/promql-in-docs.js'

// The PromQL of docs/operations.md "Monitoring", read by the Prometheus project's own grammar
// (@prometheus-io/lezer-promql) and held to what both micros really expose at /metrics.

const page = await readFile(new URL('../docs/operations.md', import.meta.url), 'utf8')
const ruleFiles = ruleFilesIn(page)

type Rule = { alert?: unknown; expr?: unknown }
const rulesOf = (file: unknown): Rule[] => {
  const groups = (file as { groups?: unknown }).groups
  return (Array.isArray(groups) ? groups : []).flatMap((group: { rules?: unknown }) =>
    Array.isArray(group?.rules) ? (group.rules as Rule[]) : [],
  )
}
const alertExpressions: DocumentedExpression[] = ruleFiles.flatMap(({ file, line }) =>
  rulesOf(file).map((rule) => ({
    expression: String(rule.expr),
    where: `the expr of alert ${String(rule.alert)} (the rule file at line ${line})`,
  })),
)
const expressions = [...promqlBlockExpressions(page), ...alertExpressions]

/** Prometheus' label names, and its durations (`1h30m`, `10m`). */
const labelName = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const duration = /^(\d+(ms|s|m|h|d|w|y))+$/
/** The labels Prometheus itself puts on every series it scrapes. */
const targetLabels = ['job', 'instance']

describe('the PromQL of docs/operations.md', () => {
  it("finds the operator's questions and every alert rule's expr", () => {
    // p99 by route, error ratio, mail failures, rate-limit refusals.
    expect(promqlBlockExpressions(page).length).toBeGreaterThanOrEqual(4)
    expect(ruleFiles).toHaveLength(1)
    expect(alertExpressions.length).toBeGreaterThanOrEqual(2)
    // However the page writes them, no `expr:` is left out of the rule files read.
    expect(page.match(/^\s*(- )?expr:/gm)).toHaveLength(alertExpressions.length)
  })

  it.each(expressions)('parses $where', ({ expression, where }) => {
    const { errors, selectors } = parsePromql(expression)
    const shown = errors.map(({ offset, line, column }) => {
      const text = expression.split('\n')[line - 1] ?? ''
      return `${where}: an error at line ${line}, column ${column} (offset ${offset}):\n${text}\n${' '.repeat(column - 1)}^`
    })
    expect(shown, `PromQL with errors:\n${expression}`).toEqual([])
    expect(selectors.length, expression).toBeGreaterThan(0)
  })

  it('writes its alert rules in the shape of a Prometheus rule file', () => {
    for (const { file } of ruleFiles) {
      expect(file).toEqual({ groups: expect.any(Array) })
      const { groups } = file as { groups: unknown[] }
      expect(groups.length).toBeGreaterThan(0)
      const groupNames = new Set<unknown>()
      for (const group of groups) {
        expect(group).toEqual({ name: expect.any(String), rules: expect.any(Array) })
        const { name, rules } = group as { name: string; rules: unknown[] }
        expect(groupNames.has(name), `group ${name} twice`).toBe(false)
        groupNames.add(name)
        expect(rules.length).toBeGreaterThan(0)
        for (const rule of rules) {
          expect(rule).toEqual({
            alert: expect.stringMatching(labelName),
            expr: expect.any(String),
            for: expect.stringMatching(duration),
            labels: expect.any(Object),
            annotations: expect.any(Object),
          })
          const { labels, annotations } = rule as Record<string, Record<string, unknown>>
          for (const map of [labels, annotations]) {
            expect(Object.keys(map ?? {}).length).toBeGreaterThan(0)
            for (const [key, value] of Object.entries(map ?? {})) {
              expect(key).toMatch(labelName)
              expect(key.startsWith('__'), key).toBe(false)
              expect(typeof value, key).toBe('string')
            }
          }
        }
      }
    }
  })
})

describe('the metrics those expressions name', () => {
  const micros: Record<string, MicroProcess> = {}
  const scraped: Record<string, ScrapedMetrics> = {}
  beforeAll(async () => {
    const metrics = { METRICS_PORT: '0' }
    const [items, mail] = await Promise.all([
      startBuiltMicro('items-service', { ...metrics, ITEMS_APIKEY: 'promql-items-key-1' }),
      startBuiltMicro('mail-service', {
        ...metrics,
        API_KEYS: 'promql-mail-key-01',
        MAIL_TRANSPORT: 'outbox',
      }),
    ])
    Object.assign(micros, { 'items-service': items, 'mail-service': mail })
    // One request each, so that the request histogram has series to show.
    expect((await fetch(`${items?.url}/items/tt0000001`)).status).toBe(404)
    const send = await fetch(`${mail?.url}/sendmail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-apikey': 'promql-mail-key-01' },
      body: JSON.stringify({ email: 'ada@example.com', name: 'Ada' }),
    })
    expect(send.status).toBe(201)
    for (const [micro, process] of Object.entries(micros)) {
      const url = /metrics: (http:\/\/[\d.]+:\d+\/metrics)/.exec(process.entry.stdout)?.[1]
      if (!url) throw new Error(`${micro} printed no metrics address:\n${process.entry.stdout}`)
      scraped[micro] = await ScrapedMetrics.from(url)
    }
  })
  afterAll(async () => {
    await Promise.all(Object.values(micros).map((micro) => micro.stop()))
  })

  /**
   * The labels of the series a scrape of `metrics` holds under `name`: a family's own, or a
   * histogram's `_bucket` (with `le`), `_sum` and `_count`; undefined when it holds none.
   */
  function labelsOf(metrics: ScrapedMetrics, name: string): Set<string> | undefined {
    const suffix = /_(bucket|sum|count)$/.exec(name)
    const histogram = suffix && name.slice(0, suffix.index)
    const family = metrics.family(name) ? name : histogram
    if (!family || metrics.samples(family).length === 0) return undefined
    if (family === histogram && metrics.family(family)?.type !== 'histogram') return undefined
    const labels = new Set(metrics.samples(family).flatMap((s) => Object.keys(s.labels)))
    if (family === histogram && suffix?.[1] === 'bucket') labels.add('le')
    return labels
  }

  /** The labels of `selector`'s metric, in every micro that exposes it; undefined in none. */
  function exposed({ metric }: Selector): Set<string> | undefined {
    const found = Object.values(scraped).map((metrics) => labelsOf(metrics, metric))
    const labels = found.filter((set) => set !== undefined)
    return labels.length === 0
      ? undefined
      : new Set([...targetLabels, ...labels.flatMap((set) => [...set])])
  }

  it('are each exposed by a micro, a histogram by its _bucket, _sum and _count', () => {
    const missing = expressions.flatMap(({ expression, where }) =>
      parsePromql(expression)
        .selectors.filter((selector) => exposed(selector) === undefined)
        .map(({ metric }) => `${where}: ${metric}`),
    )
    expect(missing).toEqual([])
  })

  it('match and group by labels those metrics have', () => {
    const unknown = expressions.flatMap(({ expression, where }) => {
      const { selectors, groupings } = parsePromql(expression)
      const matched = selectors.flatMap((selector) => {
        const labels = exposed(selector) ?? new Set()
        return selector.labels
          .filter((label) => !labels.has(label))
          .map((label) => `${where}: ${selector.metric}{${label}}`)
      })
      const grouped = groupings.flatMap((grouping) => {
        const labels = new Set(grouping.selectors.flatMap((s) => [...(exposed(s) ?? [])]))
        return grouping.labels
          .filter((label) => !labels.has(label))
          .map((label) => `${where}: by (${label})`)
      })
      return [...matched, ...grouped]
    })
    expect(unknown).toEqual([])
  })
})
