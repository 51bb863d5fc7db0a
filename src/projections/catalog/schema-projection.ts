import { assertNever } from '../../common/assert.js';
import type { Entry, GraphOp, SchemaEvent } from '../../log/events.js';
import type { GraphStore, Refusal } from '../graph/graph-store.js';
import type { IndexGeneration } from '../indexes/index-generation.js';
import { IndexStore } from '../indexes/index-store.js';
import { IndexLookup } from '../indexes/index-lookup.js';
import type { GraphReader } from '../graph/view.js';
import { Catalog, type CatalogSnapshot } from './catalog.js';
import { checkSchemaWrite, withDefaults } from './enforce.js';
import { checkSchemaEvent } from './event-checks.js';
import { isFinalBuild, isFinalCheck, type BuildRecord, type IndexRecord } from './types.js';

/**
 * The schema projection: the catalog and the B-tree indexes, folded from schema events and kept
 * current with every graph write. `check` decides whether a schema event may apply (admission asks
 * before proposing; apply asks again), `apply` changes state, and a refused event changes nothing.
 */
export type SchemaApply =
  | { readonly status: 'applied' }
  | { readonly status: 'refused'; readonly refusal: Refusal }
  /** A build repair: the graph change the state machine applies (and checks) as a graph write. */
  | { readonly status: 'graph'; readonly ops: readonly GraphOp[]; readonly after: () => void };

const SCHEMA_KINDS: ReadonlySet<string> = new Set<SchemaEvent['kind']>([
  'label_defined',
  'edge_type_defined',
  'constraint_created',
  'constraint_dropped',
  'index_created',
  'index_dropped',
  'index_rebuild_admitted',
  'index_build_progress',
  'index_build_published',
  'index_build_failed',
  'index_build_cancelled',
  'index_build_repair',
  'index_check_admitted',
  'index_check_progress',
  'index_check_repair',
  'index_check_finished',
]);

/** What a checkpoint load does around the refill of one ready index generation. */
export interface RefillHooks {
  beforeFill(gen: IndexGeneration): void;
  afterFill(gen: IndexGeneration): void;
}

export function isSchemaEvent(e: { readonly kind: string }): e is SchemaEvent {
  return SCHEMA_KINDS.has(e.kind);
}

export class SchemaProjection {
  readonly catalog = new Catalog();
  readonly indexes: IndexStore;
  /** Nodes each pending entry wrote, so a rollback can refresh their entries. */
  private readonly pendingTouched: { index: number; ids: number[] }[] = [];
  /**
   * The catalog as it was before each pending schema entry, oldest first: a checkpoint holds only
   * committed state, and a rollback of pending entries goes back to the first one's.
   */
  private readonly pendingBefore: { index: number; before: CatalogSnapshot }[] = [];

  constructor(private readonly graph: GraphStore) {
    this.indexes = new IndexStore(graph);
    // The catalog decides which labels keep valid-time versions; it is read at each apply, so a
    // label defined (or a pending definition undone) takes effect at its place in the log.
    graph.temporalLabel = (label) => this.catalog.labels.get(label)?.temporal === true;
  }

  // ---- graph writes ----

  withDefaults(ops: readonly GraphOp[]): readonly GraphOp[] {
    return withDefaults(ops, this.catalog);
  }

  checkGraphWrite(ops: readonly GraphOp[]): Refusal | undefined {
    return checkSchemaWrite(ops, this.graph, this.catalog, this.indexes);
  }

  /** Labels of the nodes `ops` touch, before they apply. */
  labelsBefore(ops: readonly GraphOp[]): Map<number, readonly string[]> {
    const out = new Map<number, readonly string[]>();
    for (const op of ops) {
      if (op.op !== 'create_node' && op.op !== 'update_node' && op.op !== 'delete_node') continue;
      if (out.has(op.id)) continue;
      const r = this.graph.nodeRecord(op.id);
      out.set(op.id, r === undefined ? [] : r.head.labels);
    }
    return out;
  }

  graphWritten(touched: Map<number, readonly string[]>, index: number, committed: boolean): void {
    this.indexes.nodesWritten(touched);
    if (!committed && touched.size > 0) this.pendingTouched.push({ index, ids: [...touched.keys()] });
  }

  /** Nodes the graph dropped for good (deleted below the MVCC horizon), with their labels: forgotten by every index. */
  nodesCollected(dropped: ReadonlyMap<number, readonly string[]>): void {
    this.indexes.nodesWritten(dropped);
  }

  markCommitted(index: number): void {
    while (this.pendingTouched.length > 0 && this.pendingTouched[0]!.index <= index) this.pendingTouched.shift();
    while (this.pendingBefore.length > 0 && this.pendingBefore[0]!.index <= index) this.pendingBefore.shift();
  }

  /** After the graph undid pending entries: their nodes' entries are recomputed from what is left. */
  rolledBack(index: number): void {
    const undone = this.pendingBefore.findIndex((p) => p.index > index);
    if (undone >= 0) {
      this.catalog.restore(this.pendingBefore[undone]!.before);
      this.pendingBefore.length = undone;
      this.reconcileGenerations();
    }
    const touched = new Map<number, readonly string[]>();
    while (this.pendingTouched.length > 0 && this.pendingTouched[this.pendingTouched.length - 1]!.index > index) {
      for (const id of this.pendingTouched.pop()!.ids) touched.set(id, [...this.allLabels()]);
    }
    this.indexes.nodesWritten(touched);
  }

  private allLabels(): Set<string> {
    return new Set([...this.catalog.indexes.values()].map((i) => i.label));
  }

  // ---- schema events ----

  check(event: SchemaEvent): Refusal | undefined {
    return checkSchemaEvent(event, this.catalog, this.graph);
  }

  apply(event: SchemaEvent, entry: Entry, committed: boolean): SchemaApply {
    const refusal = this.check(event);
    if (refusal !== undefined) return { status: 'refused', refusal };
    if (!committed) this.pendingBefore.push({ index: entry.index, before: this.catalog.snapshot() });
    const c = this.catalog;
    switch (event.kind) {
      case 'label_defined':
        c.labels.set(event.name, { name: event.name, properties: event.properties, computed: event.computed, mode: event.mode, temporal: event.temporal });
        c.bumpLabel(event.name);
        break;
      case 'edge_type_defined':
        c.edgeTypes.set(event.name, { name: event.name, properties: event.properties, temporal: event.temporal, discriminator: event.discriminator });
        c.bumpEdgeType(event.name);
        break;
      case 'constraint_created': {
        const { index, kind: _kind, ...rest } = event;
        c.constraints.set(event.name, { ...rest, ...(index !== undefined ? { index_id: index.index_id } : {}), state: index === undefined ? 'ACTIVE' : 'VALIDATING' });
        if (index !== undefined) {
          this.admitIndex(index, event.label, event.properties, entry.index, { owner: event.name, unique: true, ...(event.scope ? { scope: event.scope } : {}) });
        }
        c.bumpLabel(event.label);
        break;
      }
      case 'constraint_dropped': {
        const con = c.constraints.get(event.name)!;
        c.constraints.delete(event.name);
        const index = con.index_id === undefined ? undefined : c.indexes.get(con.index_id);
        if (index !== undefined) this.withdrawIndex(index, 'CANCELLED', 'the constraint was dropped');
        c.bumpLabel(con.label);
        break;
      }
      case 'index_created':
        this.admitIndex(event.index, event.label, event.properties, entry.index, { unique: false, ...(event.search !== undefined ? { search: event.search } : {}) });
        c.bumpLabel(event.label);
        break;
      case 'index_dropped': {
        const index = c.indexByName(event.name)!;
        this.withdrawIndex(index, 'CANCELLED', 'the index was dropped');
        c.bumpLabel(index.label);
        break;
      }
      case 'index_rebuild_admitted': {
        const index = c.indexes.get(event.index_id)!;
        index.filling = event.operation;
        c.nextOperation = Math.max(c.nextOperation, event.operation + 1);
        c.builds.set(event.operation, newBuild(event.operation, index, true, '', entry.index));
        this.indexes.create(event.operation, shapeOf(index));
        break;
      }
      case 'index_build_progress': {
        const b = c.builds.get(event.operation)!;
        b.state = 'RUNNING';
        b.indexed = Math.max(b.indexed, event.indexed);
        break;
      }
      case 'index_build_published':
        this.publish(c.builds.get(event.operation)!);
        break;
      case 'index_build_failed':
      case 'index_build_cancelled': {
        const b = c.builds.get(event.operation)!;
        const outcome = event.kind === 'index_build_failed' ? 'FAILED' : 'CANCELLED';
        const why = event.kind === 'index_build_failed' ? event.failure : '';
        const index = c.indexes.get(b.index_id);
        if (b.rebuild && index !== undefined) {
          // A rebuilt index is kept, serving its old generation; its constraint keeps holding.
          this.indexes.drop(b.operation);
          index.filling = undefined;
          b.state = outcome;
          b.failure = why;
        } else if (index !== undefined) {
          this.withdrawIndex(index, outcome, why);
          c.bumpLabel(b.label || index.label);
        }
        break;
      }
      case 'index_build_repair': {
        const b = c.builds.get(event.operation)!;
        return {
          status: 'graph',
          ops: [{ op: 'update_node', id: event.node_id, add_labels: [], remove_labels: [], set: [[event.property, event.new_value]], replace: false }],
          after: () => {
            b.repairs.push({ node_id: event.node_id, property: event.property, old_value: event.old_value, new_value: event.new_value });
          },
        };
      }
      case 'index_check_admitted': {
        const index = c.indexes.get(event.index_id)!;
        const prev = c.checks.get(event.operation);
        c.checks.set(event.operation, {
          operation: event.operation,
          index_id: index.index_id,
          index: index.name,
          label: index.label,
          state: 'ACCEPTED',
          phase: 'RECORDS',
          passes: prev?.passes ?? 0,
          checked: 0,
          mismatches: 0,
          repaired: 0,
          conflicts: [],
          failure: '',
        });
        break;
      }
      case 'index_check_progress': {
        const k = c.checks.get(event.operation)!;
        k.state = 'RUNNING';
        k.phase = event.phase;
        k.checked = event.checked;
        k.mismatches = event.mismatches;
        k.conflicts = event.conflicts.map((g) => [...g]);
        const index = c.indexes.get(k.index_id);
        if (index !== undefined && event.mismatches > 0) index.integrity = 'SUSPECT';
        break;
      }
      case 'index_check_repair': {
        const k = c.checks.get(event.operation)!;
        const gen = this.indexes.get(event.operation);
        for (const id of event.node_ids) {
          const r = this.graph.nodeRecord(id);
          if (gen === undefined) continue;
          if (r === undefined) gen.forget(id);
          else gen.refresh(r);
        }
        for (const [key, id] of event.orphans) gen?.entries.remove(key, id);
        k.repaired += event.node_ids.length + event.orphans.length;
        break;
      }
      case 'index_check_finished': {
        const k = c.checks.get(event.operation)!;
        k.state = event.outcome;
        k.failure = event.failure;
        if (event.rebuilt_into !== undefined) k.rebuilt_into = event.rebuilt_into;
        if (event.outcome === 'DONE') k.passes++;
        const index = c.indexes.get(k.index_id);
        if (index !== undefined && event.verified) index.integrity = 'VERIFIED';
        break;
      }
      default:
        return assertNever(event, 'schema event');
    }
    return { status: 'applied' };
  }

  private admitIndex(
    adm: { index_id: number; name: string; operation: number; rename_property: string },
    label: string,
    properties: readonly string[],
    at: number,
    extra: Pick<IndexRecord, 'unique'> & Partial<Pick<IndexRecord, 'owner' | 'scope' | 'search'>>,
  ): void {
    const c = this.catalog;
    const index: IndexRecord = { index_id: adm.index_id, name: adm.name, label, properties, ...extra, filling: adm.operation, integrity: 'UNCHECKED' };
    c.indexes.set(index.index_id, index);
    c.nextIndexId = Math.max(c.nextIndexId, adm.index_id + 1);
    c.nextOperation = Math.max(c.nextOperation, adm.operation + 1);
    c.builds.set(adm.operation, newBuild(adm.operation, index, false, adm.rename_property, at));
    this.indexes.create(adm.operation, shapeOf(index));
  }

  private publish(b: BuildRecord): void {
    const c = this.catalog;
    const index = c.indexes.get(b.index_id)!;
    const gen = this.indexes.get(b.operation)!;
    // On a member replaying the log (or restarting), the backfill finishes here, at the same position.
    this.indexes.fill(gen);
    // The backfill met writes at moments no entry records: the graph is settled here, the same everywhere.
    if (gen.search?.kind === 'vector') gen.search.settleBuild();
    // Complete now: the count of indexed nodes is a function of the state, the same on every member.
    b.indexed = Math.max(b.indexed, gen.filled_through_count());
    if (index.serving !== undefined) {
      this.indexes.drop(index.serving);
      this.endChecksOf(index.serving, 'the generation was replaced by a rebuild');
    }
    index.serving = b.operation;
    index.filling = undefined;
    if (b.rebuild) {
      index.integrity = 'VERIFIED';
      for (const k of c.checks.values()) if (k.rebuilt_into === b.operation) k.state = 'DONE';
    }
    b.state = 'PUBLISHED';
    const owner = c.ownerOf(index);
    if (owner !== undefined) owner.state = 'ACTIVE';
    c.bumpLabel(index.label);
  }

  /** Removes an index (and its owning constraint) in one catalog change; its open build gets `outcome`. */
  private withdrawIndex(index: IndexRecord, outcome: 'FAILED' | 'CANCELLED', failure: string): void {
    const c = this.catalog;
    for (const gen of [index.serving, index.filling]) if (gen !== undefined) this.indexes.drop(gen);
    c.indexes.delete(index.index_id);
    if (index.owner !== undefined) c.constraints.delete(index.owner);
    for (const b of c.builds.values()) {
      if (b.index_id !== index.index_id) continue;
      if (!isFinalBuild(b.state)) {
        b.state = outcome;
        b.failure = outcome === 'FAILED' ? failure : '';
      }
      b.index = '';
      b.label = '';
    }
    for (const k of c.checks.values()) {
      if (k.index_id !== index.index_id) continue;
      this.endChecksOf(k.operation, 'the index was dropped');
      k.index = '';
      k.label = '';
    }
  }

  /** A check whose generation is gone cannot finish: it fails, saying why. */
  private endChecksOf(generation: number, failure: string): void {
    const k = this.catalog.checks.get(generation);
    if (k === undefined || isFinalCheck(k.state)) return;
    k.state = 'FAILED';
    k.failure = failure;
  }

  /** The planner's index lookups over one reader (see IndexLookup). */
  lookup(reader: GraphReader): IndexLookup {
    return new IndexLookup(this.catalog, this.indexes, reader);
  }

  // ---- checkpoints ----

  /** The committed catalog: as it was before the first pending schema entry, if any. */
  snapshot(): CatalogSnapshot {
    return this.pendingBefore[0]?.before ?? this.catalog.snapshot();
  }

  /** Makes the generations match the catalog again (after a rollback restored an older catalog). */
  private reconcileGenerations(): void {
    const wanted = new Map<number, IndexRecord>();
    for (const index of this.catalog.indexes.values()) {
      for (const gen of [index.serving, index.filling]) if (gen !== undefined) wanted.set(gen, index);
    }
    for (const gen of [...this.indexes.all()]) if (!wanted.has(gen.generation)) this.indexes.drop(gen.generation);
    for (const [generation, index] of wanted) {
      if (this.indexes.get(generation) !== undefined) continue;
      const gen = this.indexes.create(generation, shapeOf(index));
      if (generation === index.serving) this.indexes.fill(gen);
    }
  }

  /**
   * Restores the catalog and refills every ready index from the records; builds under way start over.
   * `hooks` see each ready generation before and after its refill (a checkpoint load hands vector
   * indexes their saved graphs there).
   */
  restore(s: CatalogSnapshot | undefined, hooks?: RefillHooks): void {
    if (s === undefined) return;
    this.catalog.restore(s);
    for (const index of this.catalog.indexes.values()) {
      if (index.serving !== undefined) {
        const gen = this.indexes.create(index.serving, shapeOf(index));
        hooks?.beforeFill(gen);
        this.indexes.fill(gen);
        hooks?.afterFill(gen);
      }
      if (index.filling !== undefined) this.indexes.create(index.filling, shapeOf(index));
    }
  }
}

export function shapeOf(index: IndexRecord) {
  return {
    label: index.label,
    properties: index.properties,
    ...(index.scope !== undefined ? { scope: index.scope } : {}),
    ...(index.search !== undefined ? { search: index.search } : {}),
  };
}

function newBuild(operation: number, index: IndexRecord, rebuild: boolean, rename: string, at: number): BuildRecord {
  return {
    operation,
    index_id: index.index_id,
    index: index.name,
    label: index.label,
    rebuild,
    state: 'ACCEPTED',
    indexed: 0,
    failure: '',
    rename_property: rename,
    repairs: [],
    admitted_at: at,
  };
}



