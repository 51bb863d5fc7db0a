/**
 * Progress of an import: the phase, rows read, the rate and an estimate of the time left (from the
 * bytes of the input read so far against their total). Reported at most every
 * `progress_interval_ms`, and at every change of phase.
 */
export type ImportPhase = 'nodes' | 'relationships' | 'write' | 'done';

export interface ImportProgress {
  readonly phase: ImportPhase;
  readonly nodes: number;
  readonly relationships: number;
  readonly bad_rows: number;
  /** Input bytes read, and their total over every file. */
  readonly bytes_read: number;
  readonly bytes_total: number;
  readonly elapsed_ms: number;
  /** Rows per second since the start. */
  readonly rows_per_s: number;
  /** Estimated ms until every file is read; undefined before enough is known. */
  readonly eta_ms: number | undefined;
}

export const progress_interval_ms = 500;

export class ProgressMeter {
  private readonly started = performance.now();
  private lastReport = Number.NEGATIVE_INFINITY;
  phase: ImportPhase = 'nodes';
  nodes = 0;
  relationships = 0;
  badRows = 0;
  bytesBefore = 0;

  constructor(
    private readonly bytesTotal: number,
    private readonly sink: ((p: ImportProgress) => void) | undefined,
  ) {}

  /** Called often (every few thousand rows); reports when the interval passed. */
  tick(bytesInFile: number): void {
    if (this.sink === undefined) return;
    const now = performance.now();
    if (now - this.lastReport < progress_interval_ms) return;
    this.report(bytesInFile, now);
  }

  enter(phase: ImportPhase): void {
    this.phase = phase;
    if (this.sink !== undefined) this.report(0, performance.now());
  }

  private report(bytesInFile: number, now: number): void {
    this.lastReport = now;
    const elapsed = now - this.started;
    const read = this.bytesBefore + bytesInFile;
    const rows = this.nodes + this.relationships;
    const reading = this.phase === 'nodes' || this.phase === 'relationships';
    this.sink!({
      phase: this.phase,
      nodes: this.nodes,
      relationships: this.relationships,
      bad_rows: this.badRows,
      bytes_read: read,
      bytes_total: this.bytesTotal,
      elapsed_ms: elapsed,
      rows_per_s: elapsed > 0 ? (rows * 1000) / elapsed : 0,
      eta_ms: reading && read > 0 && elapsed > 200 ? (elapsed * (this.bytesTotal - read)) / read : undefined,
    });
  }
}

/** One line for a terminal or a log: `relationships  1,234,567 rows  412,000 rows/s  62%  ETA 3 s`. */
export function progressLine(p: ImportProgress): string {
  const rows = p.nodes + p.relationships;
  const pct = p.bytes_total > 0 ? Math.floor((100 * p.bytes_read) / p.bytes_total) : 100;
  const eta = p.eta_ms === undefined ? '' : `  ETA ${Math.ceil(p.eta_ms / 1000)} s`;
  const bad = p.bad_rows > 0 ? `  ${p.bad_rows} bad` : '';
  return `${p.phase.padEnd(13)} ${rows.toLocaleString('en-US').padStart(12)} rows  ${Math.round(p.rows_per_s).toLocaleString('en-US').padStart(10)} rows/s  ${String(pct).padStart(3)}%${eta}${bad}`;
}
