import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { isWeftError } from '../../common/errors.js';
import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { SchemaEvent } from '../../log/events.js';
import { isFinalCheck, type CheckRecord } from '../../projections/catalog/types.js';
import { visibleNode, type NodeVersion } from '../../projections/graph/records.js';
import type { IndexGeneration } from '../../projections/indexes/index-generation.js';
import { compareKeys, type IndexKey } from '../../projections/indexes/sorted-entries.js';
import type { Database } from '../database.js';
import type { OutcomeWatch } from './outcome-watch.js';

/**
 * Index checks (SPEC 3.3, 4.3 rules 11-13): compare a B-tree generation against the records in two
 * phases, RECORDS (each record of the label has the entries its values give it) and ENTRIES (each
 * entry names a record holding its key), in bounded slices between which other calls are served.
 * Disagreements are repaired through the log (entries recomputed from the records); a first mismatch
 * makes the index SUSPECT, a clean complete pass makes it VERIFIED. Damage wider than
 * `rebuild_mismatches_min` is not repaired entry by entry: a rebuild into a fresh generation is admitted.
 */
export interface IndexCheckerOptions {
  readonly slice_nodes: number;
  readonly concern: () => ConcernWait;
  /** Mismatches from which a rebuild replaces entry repairs. */
  readonly rebuild_mismatches_min: number;
  readonly passes_max: number;
}

export const check_repair_batch_max = 1000;

export class IndexChecker {
  private readonly running = new Set<number>();
  private stopped = false;
  /** While paused, running checks wait between slices (operators, tests). */
  private paused = false;

  constructor(
    private readonly db: Database,
    private readonly watch: OutcomeWatch,
    private readonly options: IndexCheckerOptions,
  ) {}

  /** Takes up every open check (at start, and after a restart). */
  start(): void {
    for (const k of this.db.sm.schema.catalog.checks.values()) if (!isFinalCheck(k.state)) this.run(k.operation);
  }

  stop(): void {
    this.stopped = true;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  /** Yields to the event loop between slices, and waits there while paused. */
  private async between(): Promise<void> {
    await yieldToLoop();
    while (this.paused && !this.stopped) await new Promise((r) => setTimeout(r, 10));
  }

  run(operation: number): void {
    if (this.running.has(operation) || this.stopped) return;
    this.running.add(operation);
    void this.check(operation)
      .catch(async (e: unknown) => {
        const failure = e instanceof Error ? e.message : String(e);
        await this.propose({ kind: 'index_check_finished', operation, outcome: 'FAILED', failure, verified: false });
      })
      .finally(() => this.running.delete(operation));
  }

  private record(operation: number): CheckRecord | undefined {
    const k = this.db.sm.schema.catalog.checks.get(operation);
    return k === undefined || isFinalCheck(k.state) || this.stopped ? undefined : k;
  }

  private async check(operation: number): Promise<void> {
    let found = 0;
    for (let pass = 0; pass < this.options.passes_max; pass++) {
      const k = this.record(operation);
      const gen = this.db.sm.schema.indexes.get(operation);
      if (k === undefined || gen === undefined) return;
      const result = await this.pass(operation, gen, found);
      if (result === undefined) return;
      const { mismatched, orphans } = result;
      const mismatches = mismatched.length + orphans.length;
      found += mismatches;
      if (mismatches === 0) {
        await this.propose({ kind: 'index_check_finished', operation, outcome: 'DONE', failure: '', verified: true });
        return;
      }
      if (mismatches >= this.options.rebuild_mismatches_min) {
        const catalog = this.db.sm.schema.catalog;
        const rebuild = catalog.nextOperation;
        const admitted = await this.propose({ kind: 'index_rebuild_admitted', index_id: k.index_id, operation: rebuild });
        await this.propose({
          kind: 'index_check_finished',
          operation,
          outcome: 'DONE',
          failure: '',
          verified: false,
          ...(admitted ? { rebuilt_into: rebuild } : {}),
        });
        return;
      }
      for (let i = 0; i < Math.max(mismatched.length, orphans.length); i += check_repair_batch_max) {
        await this.propose({
          kind: 'index_check_repair',
          operation,
          node_ids: mismatched.slice(i, i + check_repair_batch_max),
          orphans: orphans.slice(i, i + check_repair_batch_max),
        });
      }
    }
    await this.propose({
      kind: 'index_check_finished',
      operation,
      outcome: 'FAILED',
      failure: `entries still disagreed after ${this.options.passes_max} passes`,
      verified: false,
    });
  }

  /** One pass over both halves; undefined when the check ended meanwhile (cancelled, index dropped). */
  private async pass(
    operation: number,
    gen: IndexGeneration,
    found: number,
  ): Promise<{ mismatched: number[]; orphans: [IndexKey, number][]; checked: number; conflicts: number[][] } | undefined> {
    const graph = this.db.sm.graph;
    const mismatched: number[] = [];
    const orphans: [IndexKey, number][] = [];
    let checked = 0;
    const conflicts: number[][] = [];
    // RECORDS: every record of the label, by id, against the keys its retained versions give it.
    await this.between();
    const ids = [...graph.recordsWithLabel(gen.shape.label)].map((r) => r.id).sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i += this.options.slice_nodes) {
      if (this.record(operation) === undefined) return undefined;
      for (const id of ids.slice(i, i + this.options.slice_nodes)) {
        checked++;
        const r = graph.nodeRecord(id);
        const want = r === undefined ? [] : keysOfChain(gen, r.head);
        const have = gen.keysOf(id);
        const agree =
          want.length === have.length &&
          want.every((w) => have.some((h) => compareKeys(h, w) === 0) && gen.entries.get(w)?.ids.has(id) === true);
        if (!agree) mismatched.push(id);
      }
      await this.progress(operation, 'RECORDS', checked, found + mismatched.length, conflicts);
      await this.between();
    }
    // ENTRIES: every entry, in key order, for a record holding its key; unique keys held twice are conflicts.
    const recordMismatch = new Set(mismatched);
    const unique = this.db.sm.schema.catalog.indexes.get(this.db.sm.schema.catalog.checks.get(operation)?.index_id ?? -1)?.unique ?? false;
    let n = 0;
    for (const entry of [...gen.entries.ascending()]) {
      const live: number[] = [];
      for (const id of entry.ids) {
        checked++;
        const r = graph.nodeRecord(id);
        const holds = r !== undefined && keysOfChain(gen, r.head).some((k) => compareKeys(k, entry.key) === 0);
        // An entry a record's own repair removes (its keys are recomputed) is one disagreement, not two.
        if (!holds && !recordMismatch.has(id)) orphans.push([entry.key, id]);
        const v = r === undefined ? undefined : visibleNode(r, Number.POSITIVE_INFINITY);
        const k = v === undefined ? undefined : gen.keyOf(v.labels, v.props);
        if (k !== undefined && compareKeys(k, entry.key) === 0) live.push(id);
      }
      if (unique && live.length > 1) conflicts.push(live.sort((a, b) => a - b));
      if (++n % this.options.slice_nodes === 0) {
        if (this.record(operation) === undefined) return undefined;
        await this.progress(operation, 'ENTRIES', checked, found + mismatched.length + orphans.length, conflicts);
        await this.between();
      }
    }
    await this.progress(operation, 'ENTRIES', checked, found + mismatched.length + orphans.length, conflicts);
    return { mismatched, orphans, checked, conflicts };
  }

  private async progress(operation: number, phase: 'RECORDS' | 'ENTRIES', checked: number, mismatches: number, conflicts: number[][]): Promise<void> {
    await this.propose({ kind: 'index_check_progress', operation, phase, checked, mismatches, conflicts });
  }

  /** Proposes one entry; false when the log refused it (the check ended meanwhile). */
  private async propose(event: SchemaEvent): Promise<boolean> {
    if (this.db.sm.checkSchema(event) !== undefined) return false;
    try {
      await this.db.submit(event, this.options.concern());
      this.watch.notify();
      return true;
    } catch (e) {
      if (isWeftError(e)) return false;
      throw e;
    }
  }
}

function keysOfChain(gen: IndexGeneration, head: NodeVersion): IndexKey[] {
  const out: IndexKey[] = [];
  for (let v: NodeVersion | undefined = head; v !== undefined; v = v.prev) {
    if (v.deleted) continue;
    const k = gen.keyOf(v.labels, v.props);
    if (k !== undefined && !out.some((o) => compareKeys(o, k) === 0)) out.push(k);
  }
  return out;
}

