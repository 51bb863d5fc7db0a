import { randomBytes } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { isWeftError } from '../../common/errors.js';
import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { SchemaEvent } from '../../log/events.js';
import type { BuildRecord } from '../../projections/catalog/types.js';
import { isFinalBuild } from '../../projections/catalog/types.js';
import { visibleNode } from '../../projections/graph/records.js';
import type { Database } from '../database.js';
import { OutcomeWatch } from './outcome-watch.js';

/**
 * The index build executor (SPEC 3.2, DESIGN 5): a server-owned operation, independent of the call
 * that admitted it. It takes every open build from the catalog, seats at most `max_running` of them,
 * and fills each generation in bounded slices, yielding to the event loop between slices so that
 * writes and reads go on. Everything that decides an outcome goes through the log: the first progress
 * entry (ACCEPTED -> RUNNING), progress checkpoints, each duplicate repair, and the publication or
 * failure. A restart finds the open builds in the catalog and takes them up again.
 */
export type BuildPhase = 'AWAITING_SEAT' | 'AWAITING_OLDER_TRANSACTIONS' | 'INDEXING';

export interface BuildExecutorOptions {
  readonly max_running: number;
  /** Records visited per slice; bounds how long one slice holds the event loop. */
  readonly slice_nodes: number;
  /** Longest one slice runs; whichever of this and `slice_nodes` comes first ends it. */
  readonly slice_ms: number;
  /** Time between progress entries of one build. */
  readonly progress_interval_ms: number;
  readonly concern: () => ConcernWait;
  /** The oldest read index an open transaction still reads at, if any. */
  readonly oldestOpenReadIndex?: () => number | undefined;
  /** Suffix appended to a duplicate value by an `on_duplicate_rename` repair. */
  readonly suffix?: () => string;
  readonly log?: (line: string) => void;
}

export const build_slice_nodes_default = 2000;
export const build_progress_interval_ms_default = 250;
/** Longest a backfill slice holds the event loop. */
export const build_slice_ms_default = 4;

export class BuildExecutor {
  readonly watch: OutcomeWatch;
  /** Phase of each open build on this executor; absent: not taken up here. */
  private readonly phases = new Map<number, BuildPhase>();
  private readonly seated = new Set<number>();
  private readonly lastProgress = new Map<number, number>();
  private pumping = false;
  private stopped = false;
  /** While paused, builds are taken up and keep their seats but no slice runs (operators, tests). */
  private paused = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Database,
    private readonly options: BuildExecutorOptions,
  ) {
    this.watch = new OutcomeWatch();
    this.unsubscribe = db.onCommit(() => {
      this.watch.notify();
      this.kick();
    });
  }

  /** Takes up every open build (at start, and after a restart). */
  start(): void {
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    this.watch.close();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.kick();
  }

  phaseOf(operation: number): BuildPhase | undefined {
    return this.phases.get(operation);
  }

  /** Wakes the pump when there is an open build. */
  kick(): void {
    if (this.pumping || this.stopped) return;
    // Only the leader drives builds; a new leader takes them up when its first entry applies.
    if (!this.db.log.acceptsWrites) return;
    if (this.openBuilds().length === 0) return;
    this.pumping = true;
    void this.pump()
      .catch((e: unknown) => this.options.log?.(`weft: index build executor stopped on ${String(e)}`))
      .finally(() => {
        this.pumping = false;
        if (!this.stopped && this.openBuilds().length > 0) setTimeout(() => this.kick(), 50).unref();
      });
  }

  private openBuilds(): BuildRecord[] {
    return [...this.db.sm.schema.catalog.builds.values()].filter((b) => !isFinalBuild(b.state));
  }

  private async pump(): Promise<void> {
    for (;;) {
      if (this.stopped || !this.db.log.acceptsWrites) return;
      const open = this.openBuilds();
      for (const op of [...this.phases.keys()]) {
        if (!open.some((b) => b.operation === op)) {
          this.phases.delete(op);
          this.seated.delete(op);
          this.lastProgress.delete(op);
        }
      }
      if (open.length === 0) return;
      for (const b of open) {
        // Taking a build up is an entry: ACCEPTED -> RUNNING, whether or not a seat is free yet.
        if (b.state === 'ACCEPTED') this.propose({ kind: 'index_build_progress', operation: b.operation, indexed: 0 }, false);
        if (this.seated.has(b.operation)) continue;
        if (this.seated.size < this.options.max_running) this.seated.add(b.operation);
        else this.phases.set(b.operation, 'AWAITING_SEAT');
      }
      let worked = false;
      for (const b of open) {
        if (!this.seated.has(b.operation)) continue;
        const oldest = this.options.oldestOpenReadIndex?.();
        if (oldest !== undefined && oldest < b.admitted_at) {
          this.phases.set(b.operation, 'AWAITING_OLDER_TRANSACTIONS');
          continue;
        }
        this.phases.set(b.operation, 'INDEXING');
        if (this.paused) continue;
        await this.slice(b);
        worked = true;
      }
      // Between slices the event loop serves every other call.
      if (worked) await yieldToLoop();
      else await new Promise((r) => setTimeout(r, 20));
    }
  }

  private async slice(b: BuildRecord): Promise<void> {
    const schema = this.db.sm.schema;
    const gen = schema.indexes.get(b.operation);
    const index = schema.catalog.indexes.get(b.index_id);
    if (isFinalBuild(b.state)) return;
    if (gen === undefined || index === undefined) {
      // Cannot happen while the catalog and the generations agree; fail loudly rather than spin.
      await this.fail(b, 'the generation this build fills is missing on this member');
      return;
    }
    const owner = schema.catalog.ownerOf(index);
    const now = Date.now();
    if (!this.lastProgress.has(b.operation)) this.lastProgress.set(b.operation, now);
    if (now - (this.lastProgress.get(b.operation) ?? now) >= this.options.progress_interval_ms) {
      this.lastProgress.set(b.operation, now);
      // Progress entries are not waited for: they report, they do not decide.
      this.propose({ kind: 'index_build_progress', operation: b.operation, indexed: gen.filled_through_count() }, false);
    }
    if (index.unique && !gen.hashed) {
      // The quick first pass, hashing every key for uniqueness checks, in one go: until it is done a
      // unique check scans the records one by one, which costs every write far more than this pause.
      schema.indexes.prehash(gen, Number.MAX_SAFE_INTEGER);
      return;
    }
    const until = performance.now() + this.options.slice_ms;
    const res = schema.indexes.backfill(gen, this.options.slice_nodes, index.unique, owner?.constraint === 'NODE_KEY', () => performance.now() >= until);
    if (res.missing !== undefined) {
      const p = index.properties.find((q) => this.latestProp(res.missing!, q) === undefined) ?? index.properties[0]!;
      await this.fail(b, `node ${res.missing} of label ${index.label} has no ${p}, which the node key requires`);
      return;
    }
    if (res.duplicate !== undefined) {
      const d = res.duplicate;
      const values = index.properties.map((p, i) => `${p} = ${String(d.key[i])}`).join(', ');
      if (b.rename_property === '') {
        await this.fail(b, `nodes ${d.other_id} and ${d.node_id} of label ${index.label} both hold ${values}`);
        return;
      }
      const old = this.latestProp(d.node_id, b.rename_property);
      if (typeof old !== 'string') {
        await this.fail(b, `node ${d.node_id} duplicates ${values} but its ${b.rename_property} is not a string to rename`);
        return;
      }
      const suffix = this.options.suffix?.() ?? defaultSuffix();
      await this.propose(
        { kind: 'index_build_repair', operation: b.operation, node_id: d.node_id, property: b.rename_property, old_value: old, new_value: `${old}-${suffix}` },
        true,
      );
      return;
    }
    if (gen.complete) await this.propose({ kind: 'index_build_published', operation: b.operation }, true);
  }

  private latestProp(id: number, p: string): unknown {
    const r = this.db.sm.graph.nodeRecord(id);
    const v = r === undefined ? undefined : visibleNode(r, Number.POSITIVE_INFINITY);
    return v?.props.get(p);
  }

  private async fail(b: BuildRecord, failure: string): Promise<void> {
    this.options.log?.(`weft: index build ${b.operation} (${b.index}) failed: ${failure}`);
    await this.propose({ kind: 'index_build_failed', operation: b.operation, failure }, true);
  }

  /**
   * Proposes one entry. A refusal here is a race the log settles (a cancellation that committed first,
   * a repair whose node changed meanwhile): the next slice looks again.
   */
  private async propose(event: SchemaEvent, wait: boolean): Promise<void> {
    const refusal = this.db.sm.checkSchema(event);
    if (refusal !== undefined) return;
    const done = this.db.submit(event, this.options.concern()).then(
      () => undefined,
      (e: unknown) => {
        if (!isWeftError(e)) throw e;
        this.options.log?.(`weft: index build entry ${event.kind} not written: ${e.message}`);
      },
    );
    if (wait) await done;
  }
}

/** 8 characters of Crockford base32: 40 random bits, enough that a repaired value is new. */
export function defaultSuffix(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  return [...randomBytes(8)].map((b) => alphabet[b & 31]).join('');
}

