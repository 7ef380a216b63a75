import {
  getMetricsFromIterator,
  type PromData,
  type PromHistogramData,
  type PromMetric,
  type PromMetrics,
  type PromSummaryData,
} from 'prom2javascript'

type Labels = Record<string, string>
type Sample = PromData | PromHistogramData | PromSummaryData

/**
 * A service's metrics as Prometheus would read them: its text exposition parsed by
 * prom2javascript, a parser of its own and not the library that wrote the text, so that a test
 * reads what a scraper reads. (parse-prometheus-text-format, the better known one, folds a
 * histogram's label sets into one.)
 * @example const metrics = await ScrapedMetrics.from(metricsUrl); metrics.value('x_total')
 */
export class ScrapedMetrics {
  readonly families: PromMetrics

  constructor(families: PromMetrics) {
    this.families = families
  }

  /** Fetches `url`, checks the exposition's content type, and parses what it answered. */
  static async from(url: string): Promise<ScrapedMetrics> {
    const response = await fetch(url)
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`)
    const type = response.headers.get('content-type') ?? ''
    if (!type.startsWith('text/plain')) throw new Error(`GET ${url}: content-type ${type}`)
    const lines = (await response.text()).split('\n')
    return new ScrapedMetrics(await getMetricsFromIterator(lines[Symbol.iterator]()))
  }

  family(name: string): PromMetric | undefined {
    return this.families[name]
  }

  /** The samples of `name` whose labels include `labels`. */
  samples(name: string, labels: Labels = {}): Sample[] {
    const data: readonly Sample[] = this.family(name)?.data ?? []
    return data.filter((sample) =>
      Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
    )
  }

  /**
   * The sum of what the samples of `name` matching `labels` count: a counter's or gauge's value,
   * a histogram's count of observations. 0 when none matches.
   */
  value(name: string, labels: Labels = {}): number {
    let total = 0
    for (const sample of this.samples(name, labels)) {
      total += 'value' in sample ? sample.value : (sample.count ?? 0)
    }
    return total
  }

  /** Every label value of every sample, for checks of cardinality. */
  labelValues(): string[] {
    return Object.values(this.families).flatMap((family) =>
      (family.data as readonly Sample[]).flatMap((sample) => Object.values(sample.labels)),
    )
  }
}
