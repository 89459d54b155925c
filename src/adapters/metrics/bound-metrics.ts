import type { Registry } from 'prom-client';

/** One label set's counts: per bucket (not cumulative), their sum and how many. */
interface Series {
  readonly labels: Readonly<Record<string, string>>;
  readonly counts: number[];
  sum: number;
  count: number;
}

/** The label object of `values`, named in `names` order. */
function labelsOf(names: readonly string[], values: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [i, name] of names.entries()) labels[name] = values[i] ?? '';
  return labels;
}

/** A label set's histogram, bound once: an observation is a bucket search and three additions. */
export interface BoundSeries {
  observe(value: number): void;
}

export interface BoundHistogramOptions {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly buckets: readonly number[];
  readonly registers: readonly Registry[];
}

/**
 * A Prometheus histogram that prom-client's registry scrapes like its own (same exposition: `_bucket`
 * with `le` first, `+Inf`, `_sum`, `_count`), observed through label sets bound once. prom-client's
 * Histogram hashes and validates the label object on every `observe`, its `labels(...)` children
 * included (about 3 us each); a request makes two or three observations.
 */
export class BoundHistogram {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #labelNames: readonly string[];
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, Series>();

  constructor(options: BoundHistogramOptions) {
    this.name = options.name;
    this.help = options.help;
    this.#labelNames = options.labelNames;
    this.#bounds = [...options.buckets].sort((a, b) => a - b);
    for (const registry of options.registers) registry.registerMetric(this as never);
  }

  /** The series of these label values (in `labelNames` order), made on first use and kept. */
  labels(...values: string[]): BoundSeries {
    const key = values.join('\u0000');
    let series = this.#series.get(key);
    if (series === undefined) {
      series = { labels: labelsOf(this.#labelNames, values), counts: this.#bounds.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const bounds = this.#bounds;
    const kept = series;
    return {
      observe(value: number): void {
        if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
        for (let i = 0; i < bounds.length; i++) {
          if (value <= bounds[i]!) {
            kept.counts[i]! += 1;
            break;
          }
        }
        kept.sum += value;
        kept.count += 1;
      },
    };
  }

  /** Zeroes every series (bound series stay bound). */
  reset(): void {
    for (const series of this.#series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }

  /** What prom-client's registry reads at scrape time, in the shape of its own histograms. */
  async get() {
    const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = [];
    for (const series of this.#series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((le, i) => {
        cumulative += series.counts[i]!;
        values.push({ value: cumulative, labels: { le, ...series.labels }, metricName: `${this.name}_bucket` });
      });
      values.push({ value: series.count, labels: { le: '+Inf', ...series.labels }, metricName: `${this.name}_bucket` });
      values.push({ value: series.sum, labels: { ...series.labels }, metricName: `${this.name}_sum` });
      values.push({ value: series.count, labels: { ...series.labels }, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** A Prometheus counter scraped like prom-client's, counted through label sets bound once (see BoundHistogram). */
export class BoundCounter {
  readonly name: string;
  readonly help: string;
  readonly type = 'counter';
  readonly aggregator = 'sum';
  readonly #labelNames: readonly string[];
  readonly #series = new Map<string, { readonly labels: Readonly<Record<string, string>>; value: number }>();

  constructor(options: Omit<BoundHistogramOptions, 'buckets'>) {
    this.name = options.name;
    this.help = options.help;
    this.#labelNames = options.labelNames;
    for (const registry of options.registers) registry.registerMetric(this as never);
  }

  /** The series of these label values (in `labelNames` order), made on first use and kept. */
  labels(...values: string[]): { inc(): void } {
    const key = values.join('\u0000');
    let series = this.#series.get(key);
    if (series === undefined) {
      series = { labels: labelsOf(this.#labelNames, values), value: 0 };
      this.#series.set(key, series);
    }
    const kept = series;
    return {
      inc(): void {
        kept.value += 1;
      },
    };
  }

  reset(): void {
    for (const series of this.#series.values()) series.value = 0;
  }

  async get() {
    const values = [...this.#series.values()].map((series) => ({ value: series.value, labels: { ...series.labels } }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}
