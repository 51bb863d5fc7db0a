import type { SortDirection } from '../ast/clause.js';
import type { Direction, PathSelector } from '../ast/pattern.js';
import type {
  BoundAggregation,
  BoundPath,
  BoundRemoveItem,
  BoundSetItem,
  BoundYield,
} from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import type { ProcedureSignature } from '../bind/procedures.js';

/** A path selector a repeat applies as it searches (see the repeat op's `select`). */
export interface RepeatSelection {
  readonly selector: PathSelector;
  /** A parameter standing for `selector.count`, read per input row. */
  readonly count?: BoundExpression;
  readonly accept?: BoundExpression;
}

/**
 * One part of a path searched by length (`search_paths`): a relationship of the path, matched one
 * iteration at a time. A fixed relationship is one iteration of one hop (`single`); a quantified path
 * pattern, or a variable-length relationship as the one-hop pattern it equals, is `range` iterations.
 */
export interface SearchPart {
  /** One iteration from the node in `entry` (set on its argument row) to the node it leaves in `exit`. */
  readonly inner: LogicalOp;
  readonly entry: number;
  readonly exit: number;
  /** The inner relationship slots, in pattern order. */
  readonly inner_rels: readonly number[];
  readonly groups: readonly { readonly inner: number; readonly group: number }[];
  /** Invariant: 0 <= min <= max (max may be Infinity); a single part is {1, 1}. */
  readonly range: { readonly min: number; readonly max: number };
  /** `rel` and `to` hold one relationship and node, not lists (and there are no groups). */
  readonly single: boolean;
  /** The path's relationship slot: the relationship, or the list of the iterations' relationships in pattern order. */
  readonly rel: number;
  /** The path's node the part ends at (in search order). */
  readonly to: number;
  /** What the node the part ends at must satisfy, read with `to` written, before the path goes on from it. */
  readonly exit_test?: BoundExpression;
}

/**
 * The logical plan: a tree of operators over rows of slots (a row is an array indexed by
 * `BoundVariable.id`). Every operator but `argument` and `union` reads an `input` and is run once per
 * argument row, so a subtree placed under another operator's input is a nested loop: `MATCH (a), (b)`
 * is a scan of b whose input is the scan of a. `argument` yields the row the operator tree is run with
 * (the empty row at the top, the outer row in OPTIONAL MATCH and pattern predicates).
 *
 * Slot numbers are the binder's; an operator writes only the slots it introduces, so rows can be
 * updated in place as they stream (operators that keep rows copy them).
 */
export type LogicalOp =
  | { readonly op: 'argument' }
  /** Every node, or the nodes of one label; `props` are equality predicates the scan checks. */
  | {
      readonly op: 'node_scan';
      readonly input: LogicalOp;
      readonly variable: number;
      readonly label?: string;
      readonly props: readonly PropertyPredicate[];
      /**
       * A comparison of one property in the filter right above, which an index of the label may
       * answer at run time instead of the whole label; the filter still checks it on every row.
       */
      readonly seekable?: SeekablePredicate;
      /**
       * A `text_match(n.key, query)` in the filter right above, which a text index of the label may
       * answer at run time (the nodes whose text matches) instead of the whole label; the filter
       * still checks it on every row.
       */
      readonly text?: { readonly key: string; readonly query: BoundExpression };
      /** No operator reads the variable: the scan does not write it. */
      readonly variable_unused?: true;
      /**
       * Without `label`: the labels a `:$(x)` / `:$any(x)` / `:$all(x)` in the filter right above names,
       * where `x` reads no row (literals and parameters), so it is evaluated when the scan runs: 'any'
       * scans each label named, 'all' the one with the fewest nodes. The filter still checks it, so a
       * cached plan holds for every parameter value.
       */
      readonly dynamic_labels?: DynamicLabels;
    }
  /** The nodes whose id is among the values of `ids` (an INTEGER or a list, evaluated per row). */
  | {
      readonly op: 'node_by_id';
      readonly input: LogicalOp;
      readonly variable: number;
      readonly ids: BoundExpression;
      /** True when `ids` yields a list (`id(n) IN [...]`). */
      readonly many: boolean;
      /** The values are element ids (`elementId(n) = $e`), decoded to node ids. */
      readonly element: boolean;
      readonly label?: string;
    }
  /**
   * From the node in `from` along relationships to `to`. With `into`, `to` is bound already and the
   * relationship must end there. With `range`, `rel` receives a list of relationships (variable length).
   * `unique_from` lists relationship slots (single or list) bound earlier in the same MATCH, which the
   * new relationships must differ from (relationship uniqueness).
   */
  | {
      readonly op: 'expand';
      readonly input: LogicalOp;
      readonly from: number;
      readonly rel: number;
      readonly to: number;
      readonly direction: Direction;
      readonly types: readonly string[];
      /** A label the `from` node is known to have: its degree is then estimated for that label. */
      readonly from_label?: string;
      readonly into: boolean;
      /** The relationship slot is bound already: only that relationship is followed (never with `range`). */
      readonly rel_bound: boolean;
      readonly range?: { readonly min: number; readonly max: number };
      /**
       * The pattern is walked right to left: a variable-length list is kept in pattern order, so it
       * is reversed relative to the walk.
       */
      readonly leftwards: boolean;
      readonly unique_from: readonly number[];
      /**
       * Set when nothing reads the variable-length list (an unnamed relationship outside any path
       * variable or uniqueness check): the search then skips building one list per row.
       */
      readonly list_unused?: true;
      /** Labels the end node must have, tested by the expand before it writes the row (single hop only). */
      readonly to_labels?: readonly string[];
      /** No operator reads the relationship / the end node: the expand does not write them. */
      readonly rel_unused?: true;
      readonly to_unused?: true;
      /** A property map the relationship must match (inline `[r {k: v}]`), per relationship for var-length. */
      readonly rel_props?: BoundExpression;
      /**
       * A shortest path search (always `into`, with a `range`): one shortest path from `from` to `to`
       * ('one'), or every path of the shortest length ('all'), breadth first.
       */
      readonly shortest?: 'one' | 'all';
      /**
       * A test every relationship of a shortest path must pass, taken from the WHERE's `all(r IN
       * relationships(p) WHERE test)` over the path: the search steps only along relationships that pass
       * (bound to `variable`), so it finds the shortest path that satisfies it, as Neo4j's does. The
       * WHERE still filters the paths found.
       */
      readonly shortest_rel_test?: { readonly variable: number; readonly predicate: BoundExpression };
    }
  | { readonly op: 'filter'; readonly input: LogicalOp; readonly predicate: BoundExpression }
  /**
   * A quantified path pattern from the node in `from`: `inner` matches one iteration from the node
   * in `entry` (its argument row has `entry` set) to the node it leaves in `exit`, and the loop runs it
   * again from there, `range.min` to `range.max` times, never reusing a relationship (of this path
   * or of `unique_from`). Each match writes `to` (or, with `into`, must end there), `rel` (every
   * relationship, in pattern order) and each group slot (the list of its inner slot's values).
   */
  | {
      readonly op: 'repeat';
      readonly input: LogicalOp;
      readonly from: number;
      readonly to: number;
      readonly into: boolean;
      readonly rel: number;
      readonly inner: LogicalOp;
      readonly entry: number;
      readonly exit: number;
      /** The inner relationship slots, in pattern order. */
      readonly inner_rels: readonly number[];
      readonly groups: readonly { readonly inner: number; readonly group: number }[];
      /** Invariant: 0 <= min <= max (max may be Infinity). */
      readonly range: { readonly min: number; readonly max: number };
      /** The walk goes right to left: iterations are found last first, and listed in pattern order. */
      readonly leftwards: boolean;
      readonly unique_from: readonly number[];
      /** Of `rel`, `to` and the group slots, those no operator reads: the repeat does not write them. */
      readonly unused?: readonly number[];
      /**
       * A selective path selector over this repeat (the whole path pattern is `(from) (inner){m,n} (to)`):
       * the search goes breadth first, by number of iterations, and each partition (`from`, `to`) keeps
       * what the selector picks; with `into` it stops once the one partition has it. `accept` is the
       * path's pre-filter on its far end (read with `to` written), tested before a match is selected.
       */
      readonly select?: RepeatSelection;
    }
  /**
   * A selective path selector: per input row, every match of `inner` (one path pattern with its
   * pre-filters) is found, the matches are partitioned by the nodes in `start` and `end`, and each
   * partition keeps what `selector` picks, by length (the relationships in `rels`, single or lists).
   * `slots` are what `inner` binds, copied into the rows kept.
   */
  | {
      readonly op: 'select_paths';
      readonly input: LogicalOp;
      readonly inner: LogicalOp;
      readonly selector: PathSelector;
      /** A parameter standing for `selector.count`, read per input row. */
      readonly count?: BoundExpression;
      readonly start: number;
      readonly end: number;
      readonly rels: readonly number[];
      readonly slots: readonly number[];
    }
  /**
   * A selective path selector over a path of several parts (fixed relationships, quantified path
   * patterns, variable-length relationships), searched breadth first by length over (node, part,
   * iterations of the part) states from the node in `from` (the path's first node, or its last when
   * `leftwards`); with `into`, to the node `to` holds. `parts` are in search order. Predicates over one
   * part's nodes and relationships are inside the parts; `accept`, a plan over the argument row with the
   * whole path written (its path variables included), holds the rest of the pre-filters: a path counts
   * toward the selector only when it yields a row.
   */
  | {
      readonly op: 'search_paths';
      readonly input: LogicalOp;
      readonly selector: PathSelector;
      /** A parameter standing for `selector.count`, read per input row. */
      readonly count?: BoundExpression;
      readonly from: number;
      readonly to: number;
      readonly into: boolean;
      readonly leftwards: boolean;
      readonly parts: readonly SearchPart[];
      readonly accept?: LogicalOp;
    }
  /**
   * The nearest nodes for a top-k ordered by `vector_distance(variable.key, query)`: a vector index of
   * the label, when one is ready and the consistency mode allows it, offers candidates nearest first,
   * and `input` (the label scan and the filters the rows must pass, over the argument) is run over
   * them until `limit + skip` rows pass; without an index `input` runs as it is. The top-k above
   * still orders the rows by their exact distances.
   */
  | {
      readonly op: 'vector_search';
      readonly input: LogicalOp;
      readonly variable: number;
      readonly label: string;
      readonly key: string;
      readonly query: BoundExpression;
      /** `vector_distance`'s metric name (cosine, euclidean, dot, manhattan). */
      readonly metric: string;
      readonly limit: BoundExpression;
      readonly skip?: BoundExpression;
      /**
       * The top above orders by this `vector_distance` call alone: the search then emits its rows
       * in that order, at most `limit + skip` of them, and the top passes them on as they come
       * (vector-search-op.ts). Absent when the top has more keys.
       */
      readonly order?: BoundExpression;
    }
  /** Relationships in these slots (single or lists) must be pairwise distinct. */
  | { readonly op: 'rel_unique'; readonly input: LogicalOp; readonly slots: readonly number[] }
  /** Runs `inner` per input row (with the row as argument); a row without a match continues with `nulls` set to null. */
  | { readonly op: 'optional'; readonly input: LogicalOp; readonly inner: LogicalOp; readonly nulls: readonly number[] }
  /**
   * Runs `inner` once per input row, with the row as its argument: a CALL subquery or a FOREACH.
   * 'returning': the row continues once per inner row, with the `columns` slots copied from it; a
   * row the inner plan answers nothing for is dropped, or with `optional` continues once with them
   * null. 'unit': the inner plan runs to its end (its rows are discarded) and the row continues once.
   */
  | {
      readonly op: 'subquery';
      readonly input: LogicalOp;
      readonly inner: LogicalOp;
      readonly mode: 'returning' | 'unit';
      readonly columns: readonly number[];
      /** The outer slots a CALL subquery imports (shown by EXPLAIN; the body's own operators read them). */
      readonly imports: readonly number[];
      readonly optional: boolean;
      /** What the plan shows: a CALL subquery or a FOREACH. */
      readonly form: 'call' | 'foreach';
      /** `IN TRANSACTIONS`: input rows are taken in batches, each committed on its own (in-transactions-op.ts). */
      readonly batch?: SubqueryBatch;
    }
  /** Rows of `left` joined to rows of `right` with equal node ids in `keys`; both run on the same argument. */
  | {
      readonly op: 'hash_join';
      readonly left: LogicalOp;
      readonly right: LogicalOp;
      readonly keys: readonly number[];
      /** Slots the right side binds, copied onto the left row. */
      readonly right_slots: readonly number[];
    }
  /**
   * Rows of `left` joined to rows of `right` whose `right_keys` equal (Cypher `=` is true) the left row's
   * `left_keys`, pairwise: a MATCH sharing no variable with the rows before it, tied to them only by
   * equalities of values. `right` runs once per argument (it reads none of left's slots) into a table
   * probed by each left row, instead of once per left row. A null key never matches.
   */
  | {
      readonly op: 'value_hash_join';
      readonly left: LogicalOp;
      readonly right: LogicalOp;
      /** Same length as `right_keys`; each reads left's slots only. */
      readonly left_keys: readonly BoundExpression[];
      /** Each reads right's slots only. */
      readonly right_keys: readonly BoundExpression[];
      /** Slots the right side binds, copied onto the left row. */
      readonly right_slots: readonly number[];
    }
  /** Builds the path value of `p = ...` from its node and relationship slots. */
  | {
      readonly op: 'path';
      readonly input: LogicalOp;
      readonly variable: number;
      readonly nodes: readonly number[];
      /** Relationship slots; a variable-length slot holds a list. */
      readonly rels: readonly number[];
    }
  | { readonly op: 'project'; readonly input: LogicalOp; readonly items: readonly ProjectItem[] }
  | {
      readonly op: 'aggregate';
      readonly input: LogicalOp;
      readonly aggregation: BoundAggregation;
    }
  /** Keeps the first row of each combination of values in `slots`. */
  | { readonly op: 'distinct'; readonly input: LogicalOp; readonly slots: readonly number[] }
  | { readonly op: 'sort'; readonly input: LogicalOp; readonly keys: readonly SortKey[] }
  /** Sort followed by LIMIT: keeps only the best `limit` (+ `skip`) rows while reading. */
  | {
      readonly op: 'top';
      readonly input: LogicalOp;
      readonly keys: readonly SortKey[];
      readonly limit: BoundExpression;
      readonly skip?: BoundExpression;
    }
  | { readonly op: 'skip'; readonly input: LogicalOp; readonly count: BoundExpression }
  | { readonly op: 'limit'; readonly input: LogicalOp; readonly count: BoundExpression }
  | {
      readonly op: 'unwind';
      readonly input: LogicalOp;
      readonly expression: BoundExpression;
      readonly variable: number;
      /** FOREACH's list: a value that is neither a list nor null is a TypeError (UNWIND takes it as one element). */
      readonly lists_only?: true;
    }
  /**
   * LOAD CSV: per input row, the records of the CSV at `url`, each written to `variable` (a list of
   * fields, or a map by the header's names) with its line number and the source's file in `line` and `file`.
   */
  | {
      readonly op: 'load_csv';
      readonly input: LogicalOp;
      readonly url: BoundExpression;
      readonly headers: boolean;
      /** One character. */
      readonly terminator: string;
      readonly variable: number;
      readonly line: number;
      readonly file: number;
    }
  /** Reads its whole input before passing any row on: the barrier between reads and writes. */
  | {
      readonly op: 'eager';
      readonly input: LogicalOp;
      /** The slots in scope here: only they are kept (dead slots of earlier clauses are dropped). */
      readonly live: readonly number[];
    }
  | { readonly op: 'create'; readonly input: LogicalOp; readonly pattern: readonly BoundPath[] }
  | {
      readonly op: 'merge';
      readonly input: LogicalOp;
      readonly path: BoundPath;
      /** The plan that finds existing matches, run with the input row as argument. */
      readonly match: LogicalOp;
      readonly on_create: readonly BoundSetItem[];
      readonly on_match: readonly BoundSetItem[];
    }
  | { readonly op: 'set'; readonly input: LogicalOp; readonly items: readonly BoundSetItem[] }
  | { readonly op: 'remove'; readonly input: LogicalOp; readonly items: readonly BoundRemoveItem[] }
  | { readonly op: 'delete'; readonly input: LogicalOp; readonly detach: boolean; readonly expressions: readonly BoundExpression[] }
  | {
      readonly op: 'call';
      readonly input: LogicalOp;
      readonly procedure: ProcedureSignature;
      readonly args: readonly BoundExpression[];
      readonly yields: readonly BoundYield[];
      /** The whole query; a procedure without outputs then returns no rows at all. */
      readonly standalone: boolean;
    }
  /** The rows of each part, renamed to the first part's column slots; without `all`, duplicates go. */
  | {
      readonly op: 'union';
      readonly parts: readonly LogicalOp[];
      readonly part_columns: readonly (readonly number[])[];
      readonly all: boolean;
    }
  /** Drops every row: the end of a query without RETURN. */
  | { readonly op: 'discard'; readonly input: LogicalOp }
  /** The result: column names and the slots they are read from. */
  | { readonly op: 'produce'; readonly input: LogicalOp; readonly columns: readonly ResultColumn[] };

export interface PropertyPredicate {
  readonly key: string;
  readonly value: BoundExpression;
}

export interface SeekBound {
  readonly value: BoundExpression;
  readonly inclusive: boolean;
}

/** `n.key` compared by `<`, `<=`, `>`, `>=` (one or both bounds), STARTS WITH or IN. */
export type SeekablePredicate =
  | { readonly kind: 'range'; readonly key: string; readonly lower?: SeekBound; readonly upper?: SeekBound }
  | { readonly kind: 'prefix'; readonly key: string; readonly prefix: BoundExpression }
  | { readonly kind: 'in'; readonly key: string; readonly list: BoundExpression };

export interface ProjectItem {
  readonly variable: number;
  readonly expression: BoundExpression;
}

export interface SortKey {
  readonly expression: BoundExpression;
  readonly direction: SortDirection;
}

export interface ResultColumn {
  readonly name: string;
  readonly slot: number;
}

export type LogicalOpKind = LogicalOp['op'];

/** The operators an operator reads from, in order. */
export function inputsOf(op: LogicalOp): readonly LogicalOp[] {
  switch (op.op) {
    case 'argument':
      return [];
    case 'union':
      return op.parts;
    case 'hash_join':
    case 'value_hash_join':
      return [op.left, op.right];
    case 'optional':
    case 'subquery':
    case 'repeat':
    case 'select_paths':
      return [op.input, op.inner];
    case 'merge':
      return [op.input, op.match];
    default:
      return [op.input];
  }
}

/** A copy of `op` with its inputs replaced (same order as `inputsOf`). */
export function withInputs(op: LogicalOp, inputs: readonly LogicalOp[]): LogicalOp {
  const a = inputs[0] as LogicalOp;
  switch (op.op) {
    case 'argument':
      return op;
    case 'union':
      return { ...op, parts: inputs };
    case 'hash_join':
    case 'value_hash_join':
      return { ...op, left: a, right: inputs[1] as LogicalOp };
    case 'optional':
    case 'subquery':
    case 'repeat':
    case 'select_paths':
      return { ...op, input: a, inner: inputs[1] as LogicalOp };
    case 'merge':
      return { ...op, input: a, match: inputs[1] as LogicalOp };
    default:
      return { ...op, input: a };
  }
}

/** Rewrites a tree bottom-up: children first, then `f` on the rebuilt node. */
export function transformUp(op: LogicalOp, f: (op: LogicalOp) => LogicalOp): LogicalOp {
  const inputs = inputsOf(op);
  const next = inputs.length === 0 ? op : withInputs(op, inputs.map((i) => transformUp(i, f)));
  return f(next);
}

/** The labels a node scan takes from a value known when it starts (`:$(x)`, `:$any(x)`). */
export interface DynamicLabels {
  readonly names: BoundExpression;
  readonly mode: 'all' | 'any';
}

/** How a CALL subquery IN TRANSACTIONS takes its batches. */
export interface SubqueryBatch {
  /** Input rows per batch, a constant; the manual's default when absent. */
  readonly rows?: BoundExpression;
  readonly on_error: 'fail' | 'continue' | 'break';
  /** ON ERROR RETRY: a batch failing with a transient error is run again first, for up to `duration` seconds (a constant). */
  readonly retry?: { readonly duration?: BoundExpression };
  /** The slot of `REPORT STATUS AS s`, written on every row that passes. */
  readonly report?: number;
  /** IN [n] CONCURRENT TRANSACTIONS: up to `concurrency` batches (a constant) in flight at once. */
  readonly concurrent: boolean;
  readonly concurrency?: BoundExpression;
  /**
   * Nothing before the subquery writes: its input streams, reading the statement's first snapshot
   * (no barrier holds it), so batch 1 commits before the input is read to its end.
   */
  readonly streamed: boolean;
}
