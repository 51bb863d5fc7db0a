import type { TypeAdjacency } from '../../../projections/graph/adjacency.js';
import { keepDerived, keptForm } from '../../../projections/graph/scan-cache.js';
import type { Value } from '../../../common/values/value.js';
import type { AdjacencyDirection } from './batch.js';
import { typedColumnBytes, type TypedColumn } from './typed-columns.js';

/**
 * Relationship property columns in adjacency order. A column by edge id (GraphStore.edgeColumn, typed by
 * typed-columns.ts) answers a batched expand's `k.since` with a random read per row: the CSR lists a node's
 * relationships in its edge lists' order, which is not the order of their ids. The same column gathered
 * through one side of the type's CSR (`edges[j]` for every position j) holds the value of the relationship
 * at position j, so an expand that records each row's position (a `position` layout column) reads its
 * relationships' values in the order it walked them: a slice per start node, one cache line after another.
 *
 * A column here is made once per (column by id, CSR, direction), on the first read, and kept in WeakMaps keyed
 * by both, so it lives exactly as long as the two forms it came from: the store drops both on the next
 * write to an edge of the type, and a reader older than that write gets neither (it walks the records).
 * Each is charged to the CSR's entry in the scan cache (evicting the CSR drops it; when there is no room, the run
 * uses the column it gathered and keeps nothing). Both are pictures of the same point of the log, since a run
 * asks for them at one read index, so the value
 * at a position is the value of the relationship the CSR holds there. `both` is `out` then `into`, one after
 * the other, as an undirected expand's positions are (batch.ts, LayoutColumn).
 */
const ordered = new WeakMap<TypedColumn, WeakMap<TypeAdjacency, Map<AdjacencyDirection, TypedColumn>>>();

/**
 * Per CSR and direction, rows that expands binding their relationship have made over it: what reads in adjacency
 * order would have served. Kept beside the CSR (a WeakMap keyed by it), so a write starts the count again.
 */
const walked = new WeakMap<TypeAdjacency, Map<AdjacencyDirection, number>>();

/** Bytes a slot of a boxed column costs: a pointer. */
const SLOT_BYTES = 8;

/** Columns in adjacency order are made once rows walked add up to 1/this of the positions a column holds. */
const ORDER_DEMAND_SHARE = 4;

/** Counts `rows` an expand in `direction` made over `csr`, binding each one's relationship. */
export function noteWalked(csr: TypeAdjacency, direction: AdjacencyDirection, rows: number): void {
  let byDirection = walked.get(csr);
  if (byDirection === undefined) walked.set(csr, (byDirection = new Map()));
  byDirection.set(direction, (byDirection.get(direction) ?? 0) + rows);
}

/**
 * Whether a run should read the relationships of `csr` in `direction` in adjacency order: once the rows walked
 * over it add up to a share of the positions, as a CSR is built once record walks add up to a share of its
 * type. So an anchored query (one person's relationships) keeps reading by edge id and never pays for a
 * whole-type column, and a whole-graph one pays once per write to the type.
 */
export function readsInOrder(csr: TypeAdjacency, direction: AdjacencyDirection): boolean {
  const positions = direction === 'out' ? csr.out.edges.length : direction === 'in' ? csr.into.edges.length : csr.out.edges.length + csr.into.edges.length;
  return (walked.get(csr)?.get(direction) ?? 0) * ORDER_DEMAND_SHARE >= positions;
}

/** Relationship columns made in adjacency order since the process started (tests check that their reads used them). */
export const adjacencyColumnsBuilt = { count: 0 };

export function columnInAdjacencyOrder(byEdge: TypedColumn, csr: TypeAdjacency, direction: AdjacencyDirection): TypedColumn {
  let byCsr = ordered.get(byEdge);
  if (byCsr === undefined) ordered.set(byEdge, (byCsr = new WeakMap()));
  let byDirection = byCsr.get(csr);
  if (byDirection === undefined) byCsr.set(csr, (byDirection = new Map()));
  let column = byDirection.get(direction);
  if (column === undefined) {
    column = gather(byEdge, sidesOf(csr, direction));
    adjacencyColumnsBuilt.count++;
    // A boxed column's values are the column by id's; a typed one's arrays are new.
    const bytes = column.kind === 'any' ? SLOT_BYTES * column.values.length : typedColumnBytes(column);
    // Kept only beside a kept column by id: a typed form made for one run would leave its charge behind.
    if (keptForm(byEdge) && keepDerived(csr, column, bytes, 'column in adjacency order')) byDirection.set(direction, column);
  }
  return column;
}

/** The edge ids of the sides an expand in `direction` walks, in the order its positions count them. */
function sidesOf(csr: TypeAdjacency, direction: AdjacencyDirection): readonly Int32Array[] {
  switch (direction) {
    case 'out':
      return [csr.out.edges];
    case 'in':
      return [csr.into.edges];
    case 'both':
      return [csr.out.edges, csr.into.edges];
  }
}

/**
 * `byEdge` read at every edge id of `sides`, one side after the other, in the same typed form (strings keep the
 * dictionary). Written side by side into one column, with no concatenated copy of the ids: a whole-type build
 * already allocates tens of megabytes in a large heap.
 */
function gather(byEdge: TypedColumn, sides: readonly Int32Array[]): TypedColumn {
  let n = 0;
  for (const edges of sides) n += edges.length;
  switch (byEdge.kind) {
    case 'int':
    case 'float': {
      const values = new Float64Array(n);
      const nulls = new Uint8Array(n);
      const from = byEdge.values;
      const fromNulls = byEdge.nulls;
      let at = 0;
      for (const edges of sides) {
        for (let j = 0; j < edges.length; j++, at++) {
          const id = edges[j] as number;
          values[at] = from[id] as number;
          nulls[at] = fromNulls[id] as number;
        }
      }
      // Every value here is one of byEdge's, so its bounds on magnitudes (and having no null) hold here too.
      return { kind: byEdge.kind, values, nulls, max_abs: byEdge.max_abs, min_abs: byEdge.min_abs, no_nulls: byEdge.no_nulls };
    }
    case 'string': {
      const codes = new Int32Array(n);
      const from = byEdge.codes;
      let at = 0;
      for (const edges of sides) for (let j = 0; j < edges.length; j++) codes[at++] = from[edges[j] as number] as number;
      return { kind: 'string', codes, dictionary: byEdge.dictionary, index: byEdge.index };
    }
    case 'any': {
      // Pushed, not preallocated: a large `new Array(n)` is a slow dictionary array.
      const values: (Value | undefined)[] = [];
      const from = byEdge.values;
      for (const edges of sides) for (let j = 0; j < edges.length; j++) values.push(from[edges[j] as number]);
      return { kind: 'any', values };
    }
  }
}
