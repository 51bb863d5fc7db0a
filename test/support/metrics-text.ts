/**
 * Reading a member's /metrics in tests: one sample's value, and the naming rules `promtool check
 * metrics` applies to the exposition (counters end `_total`, nothing else does; snake_case; base
 * units, not abbreviated ones; `_count`, `_sum` and `_bucket` only on histograms and summaries), so a
 * test fails on a name Prometheus tooling would flag without needing promtool on the machine.
 */
export async function scrape(ops: string): Promise<string> {
  return (await fetch(`http://${ops}/metrics`, { signal: AbortSignal.timeout(scrape_timeout_ms) })).text();
}

const scrape_timeout_ms = 5_000;

/** The value of the sample `series` (a name, with its labels if any, as exposed); undefined when absent. */
export function sample(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return undefined;
}

/** Units promtool calls abbreviated: a metric says `seconds` or `bytes`, not these. */
const abbreviated_units = ['ms', 'msec', 'us', 'usec', 'ns', 'nsec', 'sec', 'secs', 'min', 'mins', 'kb', 'mb', 'gb', 'kib', 'mib', 'gib'];

/** Every problem promtool's lint would report for the metric families in `text`, as `name: why`. */
export function metricNameProblems(text: string): string[] {
  const problems: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (m === null) continue;
    const [, name, type] = m as unknown as [string, string, string];
    const parts = name.split('_');
    if (name !== name.toLowerCase()) problems.push(`${name}: not snake_case`);
    if (type === 'counter' && !name.endsWith('_total')) problems.push(`${name}: a counter without the _total suffix`);
    if (type !== 'counter' && name.endsWith('_total')) problems.push(`${name}: a ${type} with the _total suffix`);
    if (type !== 'histogram' && type !== 'summary' && /_(count|sum|bucket)$/.test(name)) problems.push(`${name}: a ${type} with a histogram suffix`);
    for (const unit of abbreviated_units) if (parts.includes(unit)) problems.push(`${name}: abbreviated unit ${unit}`);
    if (parts.includes('milliseconds') || parts.includes('microseconds')) problems.push(`${name}: not the base unit (seconds)`);
  }
  return problems;
}
