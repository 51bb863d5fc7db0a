import type { Value } from '../../../common/values/value.js';
import type { TypeAdjacency } from '../../../projections/graph/adjacency.js';
import type { NodeState } from '../../../projections/graph/records.js';
import type { SnapshotView } from '../../../projections/graph/view.js';
import type { BoundExpression } from '../../bind/bound-expression.js';
import { freeSlots, UNMOVABLE } from '../../plan/expressions.js';
import { asPredicate } from '../../values/coerce.js';
import type { Evaluator, Row } from '../context.js';
import type { OpEnv } from '../read-ops.js';
import type { Slices } from '../slices.js';
import { assert } from '../../../common/assert.js';
import { columnInAdjacencyOrder, readsInOrder } from './adjacency-columns.js';
import { conjunctFilter, type FilterScope } from './conjunct-filters.js';
import { Batch, BATCH_ROWS, NULL_BOOL, NULL_ID, valueBuffer, type AdjacencyDirection, type EntityKind } from './batch.js';
import { expandsOf, type BatchPlan, type Forms, type Stage } from './batch-plan.js';
import { countedPair } from './counted-pair.js';
import { leadingBounds, pickByBounds } from './scan-bounds.js';
import { memberIds, typedCandidates } from './scan-candidates.js';
import { countedExpand, expandStage, filterStage, optionalStage, scanEqualities, type BatchConsumer } from './stages.js';
import { typedColumn, type TypedColumn } from './typed-columns.js';
import { boxed, compileVector, type SlotPosition } from './vector-expressions.js';

/**
 * Running a batched pipeline (`label scan -> expands and filters`, see batch-plan.ts).
 *
 * A pipeline binds entity slots in order (the scanned node, then each expand's relationship and end
 * node when something reads them), so the columns a stage has are a prefix of the batch's. The scan
 * reads the label's kept list BATCH_ROWS nodes at a time; an expand walks each row's slice of its
 * type's CSR and writes rows into its own batch, pushing it on when full; a filter evaluates its
 * predicate over the whole batch and compacts the batch in place. Rows leave in exactly the order the
 * row-at-a-time operators make them (list order, then each node's CSR order, out before in), so
 * anything that depends on order (first-seen groups, ties) comes out the same.
 */

/**
 * The expressions of one run over a plan's batches, typed against the columns the run reads. Given the CSRs
 * the run's expands walk (`csrs`, as `Forms.csrs`), a relationship's properties are read in adjacency order:
 * `position` answers its position column and `columnOf` its columns gathered through that CSR
 * (adjacency-columns.ts), once expands over it have walked enough rows (`readsInOrder`); until then, and without
 * the CSRs, its id column and its columns by edge id.
 */
export class BatchScope implements FilterScope {
  /** Where each slot's properties are read: its id column, or for a relationship read in adjacency order, its position column. */
  private readonly positions = new Map<number, SlotPosition>();
  /** Each entity slot's id column. */
  private readonly ids = new Map<number, number>();
  /** The CSR and direction of each relationship slot read in adjacency order. */
  private readonly walked = new Map<number, { readonly csr: TypeAdjacency; readonly direction: AdjacencyDirection }>();
  private readonly columns = new Map<string, TypedColumn | undefined>();
  /** By type, then key. */
  private readonly edgeColumns = new Map<string, Map<string, TypedColumn | undefined>>();
  readonly params: ReadonlyMap<string, Value>;

  constructor(
    private readonly plan: BatchPlan,
    private readonly env: OpEnv,
    readonly arg: Row,
    private readonly demand: number,
    csrs?: readonly TypeAdjacency[],
  ) {
    plan.layout.forEach((c, i) => {
      const nullable = c.nullable === true;
      const type = c.type === undefined ? {} : { type: c.type };
      if (c.entity !== 'position') {
        this.ids.set(c.slot, i);
        this.positions.set(c.slot, { column: i, entity: c.entity, nullable, ...type });
        return;
      }
      const csr = c.expand === undefined ? undefined : csrs?.[c.expand.index];
      if (csr === undefined || c.expand === undefined || !readsInOrder(csr, c.expand.direction)) return;
      this.walked.set(c.slot, { csr, direction: c.expand.direction });
      this.positions.set(c.slot, { column: i, entity: 'relationship', nullable, ...type });
    });
    this.params = env.cx.params;
  }

  position(slot: number): SlotPosition | undefined {
    return this.positions.get(slot);
  }

  /** The batch column of an entity slot's ids. */
  idColumn(slot: number): number | undefined {
    return this.ids.get(slot);
  }

  /**
   * The typed column of `slot.key` as `position(slot)` indexes it: by node id, by edge id, or in the order of
   * the CSR the slot's expand walked.
   */
  columnOf(slot: number, key: string): TypedColumn | undefined {
    const at = this.positions.get(slot);
    if (at === undefined) return undefined;
    if (at.entity === 'node') return this.column(key);
    if (at.type === undefined) return undefined;
    let byKey = this.edgeColumns.get(at.type);
    if (byKey === undefined) this.edgeColumns.set(at.type, (byKey = new Map()));
    if (!byKey.has(key)) {
      // A batched expand walks every edge of its type that its scan reaches: build the column now.
      const values = this.env.access.edgeColumn(at.type, key, Number.MAX_SAFE_INTEGER);
      byKey.set(key, values === undefined ? undefined : typedColumn(values));
    }
    const byEdge = byKey.get(key);
    const walked = this.walked.get(slot);
    return byEdge === undefined || walked === undefined ? byEdge : columnInAdjacencyOrder(byEdge, walked.csr, walked.direction);
  }

  column(key: string): TypedColumn | undefined {
    if (!this.columns.has(key)) {
      const values = this.env.access.nodeColumn(key, this.demand);
      this.columns.set(key, values === undefined ? undefined : typedColumn(values));
    }
    return this.columns.get(key);
  }

  evaluator(e: BoundExpression): Evaluator {
    return this.env.exprs.compile(e);
  }

  /** The reference of an id in batch column `column` (a node or a relationship, as the layout says). */
  entityRef(column: number): (id: number) => Value {
    const graph = this.env.cx.graph as SnapshotView;
    const entity = (this.plan.layout[column] as (typeof this.plan.layout)[number]).entity;
    assert(entity !== 'position', 'a position column holds no entity');
    return entity === 'node' ? (id) => (id === NULL_ID ? null : graph.nodeRef(id)) : (id) => (id === NULL_ID ? null : graph.edgeRef(id));
  }

  /** Row by row: each row of the batch becomes a row of references (only the slots `e` reads), evaluated by the row evaluator. */
  generic(e: BoundExpression): (b: Batch) => Value[] {
    const f = this.env.exprs.compile(e);
    const graph = this.env.cx.graph as SnapshotView;
    const free = freeSlots(e);
    const fill = this.plan.layout.map((c, i) => ({ ...c, i })).filter((c) => c.entity !== 'position' && (free.has(c.slot) || free.has(UNMOVABLE)));
    const row = this.arg.slice();
    const out = valueBuffer();
    return (b) => {
      for (let i = 0, n = b.length; i < n; i++) {
        for (const c of fill) {
          const id = (b.columns[c.i] as Int32Array)[i] as number;
          row[c.slot] = id === NULL_ID ? null : c.entity === 'node' ? graph.nodeRef(id) : graph.edgeRef(id);
        }
        out[i] = f(row);
      }
      return out;
    };
  }

  /** A predicate over batches: 1 where it is TRUE. Non-boolean values fail as the row filter fails. */
  predicate(e: BoundExpression): (b: Batch) => Uint8Array {
    const c = compileVector(e, this);
    if (c.kind === 'bool') return (b) => c.run(b).values;
    const out = new Uint8Array(BATCH_ROWS);
    return (b) => {
      const v = c.run(b);
      for (let i = 0, n = b.length; i < n; i++) out[i] = asPredicate(boxed(c, v, i)) === true ? 1 : NULL_BOOL;
      return out;
    };
  }
}

/**
 * Runs `plan` over `forms` into `consume` (`scanFilter`, when given, keeps only the scanned nodes it marks 1). A plain loop over the list, BATCH_ROWS nodes a chunk;
 * when the slice runs out between chunks it hands the rest to a generator (see slices.ts).
 */
export function runBatches(plan: BatchPlan, forms: Forms, scope: BatchScope, env: OpEnv, consume: BatchConsumer, scanFilter?: (b: Batch) => Uint8Array): boolean | Slices {
  const deadline = env.cx.deadline;
  const width = plan.layout.length;
  let push: BatchConsumer = consume;
  // Stages are wired top down: each pushes into the one above it.
  const expands = expandsOf(plan);
  let k = expands.length - 1;
  if (plan.counted !== undefined && plan.paired !== undefined) {
    push = countedPair(plan.paired, plan.counted, plan, forms.csrs[k - 1] as TypeAdjacency, forms.bitmaps[k - 1] as readonly Uint8Array[], forms.csrs[k] as TypeAdjacency, forms.bitmaps[k] as readonly Uint8Array[], push);
    k -= 2;
  } else if (plan.counted !== undefined) {
    const counted = countedExpand(plan.counted, plan, forms.csrs[k] as TypeAdjacency, forms.bitmaps[k] as readonly Uint8Array[], push);
    push = counted;
    k--;
  }
  for (let s = plan.stages.length - 1; s >= 0; s--) {
    const stage = plan.stages[s] as Stage;
    if (stage.kind === 'filter') push = conjunctFilter(stage.op.predicate, scope, push);
    else if (stage.kind === 'optional') {
      const filters = stage.filters.map((f) => scope.predicate(f.predicate));
      push = optionalStage(stage.expand, filters, plan, forms.csrs[k] as TypeAdjacency, forms.bitmaps[k] as readonly Uint8Array[], width, deadline.check.bind(deadline), push);
      k--;
    } else {
      push = expandStage(stage.op, plan, forms.csrs[k] as TypeAdjacency, forms.bitmaps[k] as readonly Uint8Array[], width, deadline.check.bind(deadline), push);
      k--;
    }
  }
  // A test of the scanned node alone (a join's keys against the other side's), before any stage.
  if (scanFilter !== undefined) push = filterStage(scanFilter, push);
  const members = forms.members;
  const nodes = members.nodes;
  const all = memberIds(members);
  const batch = new Batch(width);
  const ids = batch.columns[0] as Int32Array;
  // The scan's equalities on typed columns pick the members first; the rest are checked on each one picked.
  const equalities = plan.scan.props.map((p) => ({ column: env.access.nodeColumn(p.key, nodes.length), wanted: env.exprs.compile(p.value)(scope.arg) }));
  const byEqualities = equalities.length === 0 ? undefined : typedCandidates(members, equalities);
  // Then the bounds of the filters above the scan narrow them (the filters still run on every member read).
  const bounds = leadingBounds(plan, scope);
  const picked = bounds === undefined ? byEqualities : pickByBounds(members, bounds, bounds.map((x) => env.exprs.compile(x.value)(scope.arg)), byEqualities, equalities.length > 0);
  const admit = picked?.exact === true ? undefined : scanEqualities(plan.scan, env, scope.arg, nodes.length);
  const positions = picked?.positions;
  const n = picked === undefined ? nodes.length : picked.length;
  const chunk = (from: number): number => {
    const to = Math.min(n, from + BATCH_ROWS);
    let w = 0;
    for (let i = from; i < to; i++) {
      const at = positions === undefined ? i : (positions[i] as number);
      if (admit === undefined || admit(nodes[at] as NodeState)) ids[w++] = all[at] as number;
    }
    batch.length = w;
    if (w > 0) push(batch, undefined);
    deadline.check();
    return to;
  };
  let at = 0;
  while (at < n) {
    at = chunk(at);
    if (deadline.due && at < n) {
      const from = at;
      return (function* (): Slices {
        let i = from;
        while (i < n) {
          yield;
          i = chunk(i);
          while (i < n && !deadline.due) i = chunk(i);
        }
        return true;
      })();
    }
  }
  return true;
}

