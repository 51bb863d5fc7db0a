/**
 * A small metrics registry: counters, gauges and fixed-bucket histograms with labels, exposed in the
 * Prometheus text format 0.0.4. Names are registered once; the ops port's GET /metrics serves
 * `registry.expose()`.
 */
import { assert } from './assert.js';

export type Labels = Readonly<Record<string, string>>;

/** Bound on label combinations per metric, so a label fed from input cannot grow memory without end. */
export const metric_series_max = 10_000;

/** Default histogram buckets, in seconds: 1 ms to 10 s. */
export const latency_buckets_seconds: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface MetricOptions {
  readonly name: string;
  readonly help: string;
  readonly label_names?: readonly string[];
}

const name_pattern = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const label_pattern = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function escapeHelp(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

abstract class Metric<Series> {
  readonly name: string;
  readonly help: string;
  readonly label_names: readonly string[];
  protected readonly series = new Map<string, { labels: Labels; value: Series }>();

  constructor(o: MetricOptions) {
    assert(name_pattern.test(o.name), `metric name "${o.name}" is not a Prometheus name`);
    for (const l of o.label_names ?? []) assert(label_pattern.test(l) && !l.startsWith('__'), `label name "${l}" is invalid`);
    this.name = o.name;
    this.help = o.help;
    this.label_names = o.label_names ?? [];
  }

  abstract readonly type: 'counter' | 'gauge' | 'histogram';
  protected abstract fresh(): Series;
  protected abstract lines(labels: Labels, value: Series, out: string[]): void;

  protected seriesFor(labels: Labels): Series {
    // Every observation of every call comes here: the key is built and the labels checked without
    // arrays or closures, and the failure's message only when it fails.
    let given = 0;
    for (const _ in labels) given++;
    let complete = given === this.label_names.length;
    let key = '';
    for (let i = 0; i < this.label_names.length; i++) {
      const value = labels[this.label_names[i]!];
      if (value === undefined) complete = false;
      key = i === 0 ? `${value}` : `${key}\u0000${value}`;
    }
    if (!complete) assert(false, `${this.name} takes labels [${this.label_names.join(', ')}], got [${Object.keys(labels).join(', ')}]`);
    let s = this.series.get(key);
    if (s === undefined) {
      assert(this.series.size < metric_series_max, `${this.name} has more than ${metric_series_max} label combinations`);
      s = { labels: { ...labels }, value: this.fresh() };
      this.series.set(key, s);
    }
    return s.value;
  }

  protected labelText(labels: Labels, extra?: string): string {
    const parts = this.label_names.map((l) => `${l}="${escapeLabelValue(labels[l] ?? '')}"`);
    if (extra !== undefined) parts.push(extra);
    return parts.length === 0 ? '' : `{${parts.join(',')}}`;
  }

  expose(out: string[]): void {
    out.push(`# HELP ${this.name} ${escapeHelp(this.help)}`);
    out.push(`# TYPE ${this.name} ${this.type}`);
    // A metric without labels shows its zero before the first observation.
    if (this.label_names.length === 0 && this.series.size === 0) this.seriesFor({});
    for (const s of this.series.values()) this.lines(s.labels, s.value, out);
  }
}

export class Counter extends Metric<{ v: number }> {
  readonly type = 'counter';
  protected fresh(): { v: number } {
    return { v: 0 };
  }
  inc(labels: Labels = {}, by = 1): void {
    assert(by >= 0 && Number.isFinite(by), `${this.name}: a counter only goes up (by ${by})`);
    this.seriesFor(labels).v += by;
  }
  get(labels: Labels = {}): number {
    return this.seriesFor(labels).v;
  }
  protected lines(labels: Labels, s: { v: number }, out: string[]): void {
    out.push(`${this.name}${this.labelText(labels)} ${formatValue(s.v)}`);
  }
}

export class Gauge extends Metric<{ v: number }> {
  readonly type = 'gauge';
  protected fresh(): { v: number } {
    return { v: 0 };
  }
  set(value: number, labels: Labels = {}): void {
    this.seriesFor(labels).v = value;
  }
  inc(labels: Labels = {}, by = 1): void {
    this.seriesFor(labels).v += by;
  }
  dec(labels: Labels = {}, by = 1): void {
    this.seriesFor(labels).v -= by;
  }
  get(labels: Labels = {}): number {
    return this.seriesFor(labels).v;
  }
  protected lines(labels: Labels, s: { v: number }, out: string[]): void {
    out.push(`${this.name}${this.labelText(labels)} ${formatValue(s.v)}`);
  }
}

interface HistogramSeries {
  /** Invariant: counts[i] counts observations <= buckets[i] and > buckets[i-1] (not cumulative). */
  readonly counts: number[];
  sum: number;
  count: number;
}

export class Histogram extends Metric<HistogramSeries> {
  readonly type = 'histogram';
  /** Upper bounds, strictly increasing; +Inf is implied. */
  readonly buckets: readonly number[];

  constructor(o: MetricOptions & { readonly buckets?: readonly number[] }) {
    super(o);
    assert(!this.label_names.includes('le'), `${o.name}: "le" is reserved for buckets`);
    const buckets = o.buckets ?? latency_buckets_seconds;
    for (let i = 1; i < buckets.length; i++) assert((buckets[i] ?? 0) > (buckets[i - 1] ?? 0), `${o.name}: buckets must increase`);
    this.buckets = buckets;
  }

  protected fresh(): HistogramSeries {
    return { counts: this.buckets.map(() => 0), sum: 0, count: 0 };
  }

  observe(value: number, labels: Labels = {}): void {
    const s = this.seriesFor(labels);
    let i = 0;
    while (i < this.buckets.length && !(value <= this.buckets[i]!)) i++;
    if (i < this.buckets.length) s.counts[i] = (s.counts[i] ?? 0) + 1;
    s.sum += value;
    s.count += 1;
  }

  /** Starts a timer; calling the result observes the elapsed seconds. */
  startTimer(labels: Labels = {}): () => number {
    const start = process.hrtime.bigint();
    return () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      this.observe(seconds, labels);
      return seconds;
    };
  }

  protected lines(labels: Labels, s: HistogramSeries, out: string[]): void {
    let cumulative = 0;
    for (const [i, bound] of this.buckets.entries()) {
      cumulative += s.counts[i] ?? 0;
      out.push(`${this.name}_bucket${this.labelText(labels, `le="${formatValue(bound)}"`)} ${cumulative}`);
    }
    out.push(`${this.name}_bucket${this.labelText(labels, 'le="+Inf"')} ${s.count}`);
    out.push(`${this.name}_sum${this.labelText(labels)} ${formatValue(s.sum)}`);
    out.push(`${this.name}_count${this.labelText(labels)} ${s.count}`);
  }
}

export class MetricsRegistry {
  private readonly metrics = new Map<string, Counter | Gauge | Histogram>();

  private add<M extends Counter | Gauge | Histogram>(m: M): M {
    assert(!this.metrics.has(m.name), `metric ${m.name} registered twice`);
    this.metrics.set(m.name, m);
    return m;
  }

  counter(o: MetricOptions): Counter {
    return this.add(new Counter(o));
  }

  gauge(o: MetricOptions): Gauge {
    return this.add(new Gauge(o));
  }

  histogram(o: MetricOptions & { readonly buckets?: readonly number[] }): Histogram {
    return this.add(new Histogram(o));
  }

  get(name: string): Counter | Gauge | Histogram | undefined {
    return this.metrics.get(name);
  }

  /** Prometheus text exposition 0.0.4, metrics in registration order. */
  expose(): string {
    const out: string[] = [];
    for (const m of this.metrics.values()) m.expose(out);
    return out.join('\n') + '\n';
  }
}

/** The Content-Type of `expose()`. */
export const prometheus_content_type = 'text/plain; version=0.0.4; charset=utf-8';
