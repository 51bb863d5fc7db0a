import { assertNever } from '../../common/assert.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import type { Value } from '../../common/values/value.js';
import type { Histogram } from './histogram.js';
import type { LogicalOp } from './logical.js';
import { filterSelectivity, knownLabels, propertyEqualitySelectivity } from './selectivity.js';

/**
 * Row estimates from the graph's counts (label counts, edge type counts). They steer the choice of
 * where a pattern starts and whether to join, and EXPLAIN shows them; they are rough by design.
 */
export interface GraphCounts {
  readonly nodes: number;
  readonly edges: number;
  readonly label_counts: ReadonlyMap<string, number>;
  readonly edge_type_counts: ReadonlyMap<string, number>;
  /**
   * Average relationships (of `types`, in `direction`) of a node with `label`, when the engine can
   * measure it (a sample of the label's nodes); absent, degrees are averaged over the whole graph.
   */
  readonly degree?: (label: string, types: readonly string[], direction: 'out' | 'in' | 'both') => number;
  /**
   * Distinct values of `property` among the nodes with `label`, when the engine can measure it (a
   * sample of the label's nodes); absent, an equality keeps EQUALITY_SELECTIVITY of the rows.
   */
  readonly distinct?: (label: string, property: string) => DistinctEstimate;
  /**
   * The equi-depth histogram of `property` among the nodes of `label` (plan/histogram.ts), when the engine
   * keeps statistics of it; absent or undefined, comparisons keep fixed guesses.
   */
  readonly histogram?: (label: string, property: string) => Histogram | undefined;
  /**
   * A sample of the values of `property` among the nodes of `label` that have it, when they are all strings and
   * the engine keeps statistics of it; absent or undefined, string predicates keep a fixed guess.
   */
  readonly strings?: (label: string, property: string) => readonly string[] | undefined;
  /** Whether an index of `label` answers equalities on `property`; absent, none is assumed. */
  readonly indexed?: (label: string, property: string) => boolean;
  /**
   * The value a run value (plan/parameter-values.ts: parameters, literals and simple operators over them) has in
   * the run being planned, when it is compared with `property` of nodes with `label` (`use`: by a range, an
   * equality, or as the list of an IN) and the planner may weigh it as it weighs a literal (the engine then keeps
   * the plan only for values of the same class: see ParameterUse); absent or undefined, it keeps the fixed guesses.
   */
  readonly parameter?: (value: BoundExpression, use: ParameterUse, label: string, property: string) => Value | undefined;
}

/** How a weighed run value is compared: its plan is kept per band (range), share class (equality) or list class (IN) of its value. */
export type ParameterUse = 'range' | 'equality' | 'in';

/** What a sample says of one property of one label's nodes. */
export interface DistinctEstimate {
  /** Estimated distinct values among the nodes that have the property (at least 1 when any has it). */
  readonly values: number;
  /** Fraction of the label's nodes that have the property, 0..1. */
  readonly present: number;
}

export const empty_counts: GraphCounts = { nodes: 0, edges: 0, label_counts: new Map(), edge_type_counts: new Map() };

/** Fraction of rows an equality on a property keeps when nothing is known of the property's values. */
export const EQUALITY_SELECTIVITY = 0.1;
/** Fraction a general predicate (a function, a range no histogram weighs) keeps. */
export const PREDICATE_SELECTIVITY = 0.3;
/**
 * A seek returns at most this fraction of its label's nodes, or `seek_nodes_min` if that is more;
 * past it a scan is cheaper. Walking an index costs about fifteen times what a scan costs per node
 * (a node read and a visibility check per entry, against a pass over a kept list), so the break-even
 * is near 6%. The index lookup declines a seek past it at run time; the planner leaves an index out
 * when the statistics put a seek past it.
 */
export const seek_fraction_max = 0.05;
export const seek_nodes_min = 1000;
/**
 * The seek share past which a scan is cheaper when the filter only bounds properties by constants: such a
 * scan picks its members with a loop over the label's columns (execute/column-scan.ts). Measured at 100,000
 * persons: the scan took 1.0 to 1.5 ms whatever the share, a seek 0.3 ms for 200 nodes, 1.5 ms for 1,000
 * and 5 ms for 5,000.
 */
export const bounded_seek_fraction_max = 0.01;
/** Rows assumed for each source a LOAD CSV reads: its size is not known before the statement runs. */
export const LOAD_CSV_ROWS = 1000;
/** Rows assumed for an UNWIND of an unknown list. */
export const UNWIND_ROWS = 10;
/** Nodes of a label looked at to measure its degree, and the most relationships counted per node. */
export const DEGREE_SAMPLE_NODES = 64;
export const DEGREE_SAMPLE_EDGES_MAX = 10_000;
/** Nodes of a label looked at to estimate the distinct values of a property. */
export const DISTINCT_SAMPLE_NODES = 1000;

/**
 * The distinct values of a population of `population` values, from a sample of `sampled` of them
 * holding `seen` distinct values of which `once` appear exactly once: the Duj1 estimator of Haas and
 * Stokes (1998), n·d / (n − f1 + f1·n/N). It gives `seen` when the sample is the whole population and
 * `population` when every sampled value differs.
 */
export function estimateDistinct(sampled: number, seen: number, once: number, population: number): number {
  if (sampled === 0 || seen === 0) return 0;
  const n = sampled;
  const N = Math.max(population, n);
  const d = (n * seen) / (n - once + (once * n) / N);
  return Math.min(N, Math.max(seen, d));
}

/**
 * Fraction of the nodes of `label` that an equality on `property` keeps: the nodes with the property,
 * spread evenly over its distinct values. EQUALITY_SELECTIVITY without a label or a measure.
 */
export function equalitySelectivity(counts: GraphCounts, label: string | undefined, property: string): number {
  if (label === undefined || counts.distinct === undefined) return EQUALITY_SELECTIVITY;
  const rows = labelRows(counts, label);
  if (rows === 0) return EQUALITY_SELECTIVITY;
  const { values, present } = counts.distinct(label, property);
  // No sampled node has the property: an equality on it keeps (almost) nothing.
  if (values === 0) return 1 / rows;
  return Math.max(1 / rows, present / values);
}

export function labelRows(counts: GraphCounts, label: string | undefined): number {
  if (label === undefined) return counts.nodes;
  return counts.label_counts.get(label) ?? 0;
}

/** Average relationships per node along `types` in `direction` ('both' counts each end), of nodes with `label` when known. */
export function averageDegree(counts: GraphCounts, types: readonly string[], direction: 'out' | 'in' | 'both', label?: string): number {
  if (counts.nodes === 0) return 0;
  if (label !== undefined && counts.degree !== undefined) return counts.degree(label, types, direction);
  const edges = types.length === 0 ? counts.edges : types.reduce((n, t) => n + (counts.edge_type_counts.get(t) ?? 0), 0);
  return ((direction === 'both' ? 2 : 1) * edges) / counts.nodes;
}

/** Fraction of the rows of `input` that `predicate` keeps (plan/selectivity.ts). */
export function predicateSelectivity(predicate: BoundExpression, input: LogicalOp, counts: GraphCounts): number {
  return filterSelectivity(predicate, counts, knownLabels(input));
}

/** Estimated rows an operator produces per run of the plan (the top-level argument counts as one row). */
export function estimateRows(op: LogicalOp, counts: GraphCounts): number {
  switch (op.op) {
    case 'argument':
      return 1;
    case 'node_scan':
      return estimateRows(op.input, counts) * labelRows(counts, op.label) * op.props.reduce((f, p) => f * propertyEqualitySelectivity(counts, op.label, p.key, p.value), 1);
    case 'node_by_id':
      return estimateRows(op.input, counts) * (op.many ? 10 : 1);
    case 'expand': {
      const degree = averageDegree(counts, op.types, op.direction, op.from_label);
      const hops = op.range === undefined ? degree : varLengthFanout(degree, op.range);
      const into = op.into ? 1 / Math.max(1, counts.nodes) : 1;
      // An end label the expand tests keeps the label's share of the nodes.
      const labelled = (op.to_labels ?? []).reduce((f, l) => f * Math.min(1, labelRows(counts, l) / Math.max(1, counts.nodes)), 1);
      return estimateRows(op.input, counts) * hops * into * labelled * (op.rel_props ? EQUALITY_SELECTIVITY : 1);
    }
    case 'filter':
      return estimateRows(op.input, counts) * predicateSelectivity(op.predicate, op.input, counts);
    case 'repeat': {
      // An iteration's rows per entry node, repeated as a variable-length expand's hops are.
      const into = op.into ? 1 / Math.max(1, counts.nodes) : 1;
      return estimateRows(op.input, counts) * varLengthFanout(Math.max(1, estimateRows(op.inner, counts)), op.range) * into;
    }
    case 'search_paths':
      // At most `count` paths (or groups) per partition: one partition with `into`, a far end per node without.
      return estimateRows(op.input, counts) * op.selector.count * (op.into ? 1 : Math.max(1, counts.nodes));
    case 'select_paths':
      return Math.min(estimateRows(op.input, counts) * estimateRows(op.inner, counts), estimateRows(op.input, counts) * op.selector.count * counts.nodes);
    case 'rel_unique':
      return estimateRows(op.input, counts);
    case 'subquery':
      return op.mode === 'unit' ? estimateRows(op.input, counts) : estimateRows(op.inner, counts) * estimateRows(op.input, counts);
    case 'optional':
      return Math.max(estimateRows(op.input, counts), estimateRows(op.inner, counts) * estimateRows(op.input, counts));
    case 'value_hash_join':
      return estimateRows(op.left, counts) * estimateRows(op.right, counts) * Math.pow(EQUALITY_SELECTIVITY, op.left_keys.length);
    case 'hash_join': {
      const l = estimateRows(op.left, counts);
      const r = estimateRows(op.right, counts);
      return (l * r) / Math.max(1, Math.pow(counts.nodes, op.keys.length));
    }
    case 'aggregate': {
      const input = estimateRows(op.input, counts);
      return op.aggregation.keys.length === 0 ? 1 : Math.max(1, Math.sqrt(input));
    }
    case 'distinct':
      return Math.max(1, estimateRows(op.input, counts) * 0.7);
    case 'top':
    case 'limit': {
      const n = op.op === 'top' ? op.limit : op.count;
      const input = estimateRows(op.input, counts);
      return n.kind === 'literal' && typeof n.value === 'bigint' ? Math.min(input, Number(n.value)) : input;
    }
    case 'unwind':
      return estimateRows(op.input, counts) * (op.expression.kind === 'list' ? op.expression.items.length : UNWIND_ROWS);
    case 'load_csv':
      return estimateRows(op.input, counts) * LOAD_CSV_ROWS;
    case 'union':
      return op.parts.reduce((n, p) => n + estimateRows(p, counts), 0);
    case 'merge':
    case 'call':
    case 'vector_search':
    case 'path':
    case 'project':
    case 'sort':
    case 'skip':
    case 'eager':
    case 'create':
    case 'set':
    case 'remove':
    case 'delete':
    case 'produce':
      return estimateRows(op.input, counts);
    case 'discard':
      return 0;
    default:
      return assertNever(op, 'logical operator');
  }
}

function varLengthFanout(degree: number, range: { min: number; max: number }): number {
  // Paths up to a few hops dominate; longer ranges are capped so estimates stay finite.
  const max = Math.min(range.max, range.min + 4);
  let total = 0;
  for (let k = range.min; k <= max; k++) total += Math.pow(degree, k);
  return total;
}
