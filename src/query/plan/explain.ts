import type { TextIndexHandle, VectorIndexHandle } from '../../projections/search/search-lookup.js';
import { assertNever } from '../../common/assert.js';
import type { Value } from '../../common/values/value.js';
import type { ConstraintRecord, IndexRecord } from '../../projections/catalog/types.js';
import type { NodeState } from '../../projections/graph/records.js';
import type { GraphReader } from '../../projections/graph/view.js';
import type { LookupKind } from '../../projections/indexes/index-lookup.js';
import type { PathSelector } from '../ast/pattern.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import type { BoundStatement } from '../bind/bound-statement.js';
import { in_transactions_rows_default } from '../bind/bound-clause.js';
import { estimateRows, type GraphCounts } from './cardinality.js';
import { conjuncts } from './expressions.js';
import { inputsOf, type LogicalOp } from './logical.js';

/** SPEC 2.3 QueryPlan: an operator tree with string details and row estimates. */
export interface QueryPlan {
  readonly operator: string;
  readonly details: Readonly<Record<string, string>>;
  readonly children: readonly QueryPlan[];
  readonly estimated_rows: number;
}

/**
 * What the engine asks of the index catalog. There are no indexes yet, so the default has none; the
 * server plugs the B-tree indexes in here. EXPLAIN asks `hasIndex` (to show a seek and to hold back
 * advice); a label scan with an equality on a property asks `seek` at run time and reads the index's
 * answer instead of the label when there is one.
 */
export interface IndexCatalog {
  hasIndex(label: string, properties: readonly string[]): boolean;
  /**
   * The nodes of `label` whose `property` equals `value` (Cypher `=`) as `reader` sees them, each
   * once; undefined when no ready index answers for this reader (the scan then reads the label).
   * Over a write set the answer also holds the nodes the write set created or changed, matching or
   * not, so the caller checks the label and the property of every node it gets.
   */
  seek?(reader: GraphReader, label: string, property: string, value: Value): Iterable<NodeState> | undefined;
  /**
   * The nodes of `label` whose `property` passes `test` as `reader` sees them, each once, or a
   * superset of them (over a write set, as `seek`); undefined when no ready index answers.
   */
  seekWhere?(reader: GraphReader, label: string, property: string, test: IndexTest): Iterable<NodeState> | undefined;
  /** The vector index of `label`.`property`, ready or being built; undefined when there is none. */
  vectorIndex?(label: string, property: string): VectorIndexHandle | undefined;
  /** The text index of `label` covering `property`, ready or being built; undefined when there is none. */
  textIndex?(label: string, property: string): TextIndexHandle | undefined;
  /** A node in the latest committed state (a CURRENT vector search's candidate the reader does not see). */
  currentNode?(id: number): NodeState | undefined;
  /** Every index and constraint of the member now, for SHOW INDEXES and SHOW CONSTRAINTS. */
  schemaObjects?(): SchemaObjects;
}

/** What `seekWhere` looks for: Cypher's comparisons, STARTS WITH, or IN over the values given. */
export type IndexTest = Exclude<LookupKind, { readonly kind: 'equal' }>;

/** The schema catalog's indexes and constraints as the member holds them now. */
export interface SchemaObjects {
  readonly indexes: readonly IndexRecord[];
  readonly constraints: readonly ConstraintRecord[];
}

export const no_indexes: IndexCatalog = { hasIndex: () => false };

export type SuggestionSeverity = 'WARNING' | 'INFO';

export interface IndexSuggestion {
  readonly severity: SuggestionSeverity;
  readonly label: string;
  readonly property: string;
  readonly reason: string;
  /** The DDL to run. */
  readonly statement: string;
}

/** Estimated cost units per row an operator touches, and how long a unit takes, for the summary. */
const COST_NS_PER_UNIT = 150;

/** The QueryPlan of a plan, with the summary details on the root. */
export function explainPlan(plan: LogicalOp, counts: GraphCounts, indexes: IndexCatalog, slotNames: readonly string[]): QueryPlan {
  const suggestions = indexSuggestions(plan, indexes, slotNames);
  const tree = describe(plan, counts, slotNames, indexes);
  const cost = planCost(plan, counts);
  const details: Record<string, string> = {
    ...tree.details,
    explain: renderTree(tree, 0),
    cost: cost.toFixed(1),
    estimated_time_ms: ((cost * COST_NS_PER_UNIT) / 1e6).toFixed(3),
    suggestions: suggestions.map((s) => `[${s.severity}] ${s.reason} Suggested: ${s.statement}`).join('\n'),
    suggestion_count: String(suggestions.length),
  };
  return { ...tree, details };
}

/** The plan of a statement that is not a query (schema and session statements run no operators). */
export function explainStatement(statement: BoundStatement): QueryPlan {
  const operator = statement.kind === 'session_set' ? 'SessionSet' : 'SchemaCommand';
  return {
    operator,
    details: { explain: operator, cost: '0', estimated_time_ms: '0', suggestions: '', suggestion_count: '0', statement: statement.kind },
    children: [],
    estimated_rows: 0,
  };
}

/** Total rows flowing through every operator: the plan's cost in the planner's units. */
export function planCost(plan: LogicalOp, counts: GraphCounts): number {
  let total = estimateRows(plan, counts);
  for (const i of inputsOf(plan)) total += planCost(i, counts);
  return total;
}

function name(slot: number, names: readonly string[]): string {
  const n = names[slot] ?? `#${slot}`;
  return n.startsWith(' ') ? `anon_${slot}` : n;
}

function describe(op: LogicalOp, counts: GraphCounts, names: readonly string[], indexes: IndexCatalog): QueryPlan {
  const [named, details] = operatorOf(op, names);
  const [operator, more] = op.op === 'node_scan' ? indexUse(op, named, indexes) : op.op === 'vector_search' ? [named, vectorIndexUse(op, indexes)] : [named, {}];
  return {
    operator,
    details: { ...details, ...more },
    children: inputsOf(op)
      .filter((i) => i.op !== 'argument' || op.op === 'optional' || op.op === 'hash_join' || op.op === 'value_hash_join' || op.op === 'subquery')
      .map((i) => describe(i, counts, names, indexes)),
    estimated_rows: Math.round(estimateRows(op, counts) * 100) / 100,
  };
}

/**
 * How a label scan will use an index when the catalog has one: an equality of its inline properties
 * (NodeIndexSeek), else the filter's comparison (NodeIndexSeekByRange, NodeIndexSeekByPrefix,
 * NodeIndexSeekByList, naming the index's label and property); `named`, the scan's own name, when none.
 */
function indexUse(op: Extract<LogicalOp, { op: 'node_scan' }>, named: string, indexes: IndexCatalog): [string, Record<string, string>] {
  const label = op.label;
  if (label === undefined) return [named, {}];
  const text = op.text === undefined ? undefined : indexes.textIndex?.(label, op.text.key);
  if (text !== undefined && op.text !== undefined) {
    return ['NodeIndexTextSearch', { index: text.name, property: `:${label}(${op.text.key})`, ready: String(text.ready) }];
  }
  if (indexes.seek !== undefined && op.props.some((p) => indexes.hasIndex(label, [p.key]))) return ['NodeIndexSeek', {}];
  const s = op.seekable;
  if (s === undefined || indexes.seekWhere === undefined || !indexes.hasIndex(label, [s.key])) return [named, {}];
  const index = { index: `:${label}(${s.key})` };
  switch (s.kind) {
    case 'range':
      return ['NodeIndexSeekByRange', index];
    case 'prefix':
      return ['NodeIndexSeekByPrefix', index];
    case 'in':
      return ['NodeIndexSeekByList', index];
    default:
      return assertNever(s, 'seekable predicate');
  }
}

/** The vector index a search will use, or why it scans instead. */
function vectorIndexUse(op: Extract<LogicalOp, { op: 'vector_search' }>, indexes: IndexCatalog): Record<string, string> {
  const h = indexes.vectorIndex?.(op.label, op.key);
  if (h === undefined) return { index: 'none: exact scan of the label' };
  if (h.metric_function !== op.metric) return { index: `none: ${h.name} orders by ${h.metric_function}, the query by ${op.metric}` };
  return { index: h.name, metric: h.metric, ready: String(h.ready), search: h.approximate ? 'hnsw' : 'exact' };
}

function operatorOf(op: LogicalOp, names: readonly string[]): [string, Record<string, string>] {
  const n = (s: number): string => name(s, names);
  switch (op.op) {
    case 'argument':
      return ['Argument', {}];
    case 'node_scan': {
      const props = op.props.map((p) => `${n(op.variable)}.${p.key} = ${expressionText(p.value, names)}`).join(' AND ');
      const dynamic = op.dynamic_labels === undefined ? undefined : `(${n(op.variable)}:$${op.dynamic_labels.mode}(${expressionText(op.dynamic_labels.names, names)}))`;
      const base =
        op.label !== undefined ? ['NodeByLabelScan', `(${n(op.variable)}:${op.label})`] : dynamic !== undefined ? ['DynamicLabelNodeScan', dynamic] : ['AllNodesScan', `(${n(op.variable)})`];
      return [base[0] as string, { pattern: base[1] as string, ...(props !== '' && { predicate: props }) }];
    }
    case 'node_by_id':
      return [op.element ? 'NodeByElementIdSeek' : 'NodeByIdSeek', { pattern: `(${n(op.variable)})`, ids: expressionText(op.ids, names) }];
    case 'expand': {
      const arrow = op.direction === 'out' ? ['-', '->'] : op.direction === 'in' ? ['<-', '-'] : ['-', '-'];
      const range = op.range ? `*${op.range.min}..${op.range.max === Infinity ? '' : op.range.max}` : '';
      const types = op.types.length > 0 ? `:${op.types.join('|')}` : '';
      const toLabels = op.to_labels === undefined ? '' : op.to_labels.map((l) => `:${l}`).join('');
      const pattern = `(${n(op.from)})${arrow[0]}[${n(op.rel)}${types}${range}]${arrow[1]}(${n(op.to)}${toLabels})`;
      if (op.shortest !== undefined) return [op.shortest === 'all' ? 'AllShortestPaths' : 'ShortestPath', { pattern }];
      return [op.range ? 'VarLengthExpand' : op.into ? 'Expand(Into)' : 'Expand(All)', { pattern }];
    }
    case 'filter':
      return ['Filter', { predicate: expressionText(op.predicate, names) }];
    case 'repeat': {
      const range = `{${op.range.min},${op.range.max === Infinity ? '' : op.range.max}}`;
      const groups = op.groups.map((g) => n(g.group)).join(', ');
      const pattern = `(${n(op.from)}) (...)${range} (${n(op.to)})`;
      if (op.select !== undefined) {
        const selector = selectorText(op.select.selector, op.select.count, names);
        return [op.into ? 'SearchRepeat(Into)' : 'SearchRepeat(All)', { selector, pattern, ...(groups !== '' && { groups }) }];
      }
      return [op.into ? 'Repeat(Into)' : 'Repeat(All)', { pattern, ...(groups !== '' && { groups }) }];
    }
    case 'search_paths': {
      const parts = op.parts.map((p) => (p.single ? `-[${n(p.rel)}]- (${n(p.to)})` : `(...){${p.range.min},${p.range.max === Infinity ? '' : p.range.max}} (${n(p.to)})`));
      const pattern = `(${n(op.from)}) ${parts.join(' ')}`;
      const selector = selectorText(op.selector, op.count, names);
      return [op.into ? 'SearchPaths(Into)' : 'SearchPaths(All)', { selector, pattern, ...(op.leftwards && { direction: 'leftwards' }), ...(op.accept !== undefined && { path_filter: 'yes' }) }];
    }
    case 'select_paths':
      return ['SelectPaths', { selector: selectorText(op.selector, op.count, names), partition: `(${n(op.start)}), (${n(op.end)})` }];
    case 'vector_search':
      return [
        'VectorSearch',
        {
          pattern: `(${n(op.variable)}:${op.label})`,
          order: `vector_distance(${n(op.variable)}.${op.key}, ${expressionText(op.query, names)}, '${op.metric}')`,
          limit: expressionText(op.limit, names),
        },
      ];
    case 'rel_unique':
      return ['RelationshipUniqueness', { relationships: op.slots.map(n).join(', ') }];
    case 'optional':
      return ['Optional', { nullable: op.nulls.map(n).join(', ') }];
    case 'subquery':
      if (op.form === 'foreach') return ['Foreach', {}];
      if (op.batch !== undefined) {
        return [
          op.mode === 'unit' ? 'TransactionForeach' : 'TransactionApply',
          {
            ...(op.imports.length > 0 && { imports: op.imports.map(n).join(', ') }),
            ...(op.columns.length > 0 && { returns: op.columns.map(n).join(', ') }),
            batch: op.batch.rows === undefined ? String(in_transactions_rows_default) : expressionText(op.batch.rows, names),
            on_error: op.batch.retry === undefined ? op.batch.on_error.toUpperCase() : `RETRY THEN ${op.batch.on_error.toUpperCase()}`,
            ...(op.batch.retry?.duration !== undefined && { retry_seconds: expressionText(op.batch.retry.duration, names) }),
            ...(op.batch.streamed && { input: 'streamed' }),
            ...(op.batch.concurrent && { concurrency: op.batch.concurrency === undefined ? 'default' : expressionText(op.batch.concurrency, names) }),
            ...(op.batch.report !== undefined && { report: n(op.batch.report) }),
          },
        ];
      }
      return [
        op.mode === 'unit' ? 'SubqueryForeach' : op.optional ? 'OptionalApply' : 'Apply',
        {
          ...(op.imports.length > 0 && { imports: op.imports.map(n).join(', ') }),
          ...(op.columns.length > 0 && { returns: op.columns.map(n).join(', ') }),
        },
      ];
    case 'hash_join':
      return ['NodeHashJoin', { keys: op.keys.map(n).join(', ') }];
    case 'value_hash_join':
      return ['ValueHashJoin', { keys: op.left_keys.map((k, i) => `${expressionText(k, names)} = ${expressionText(op.right_keys[i] as BoundExpression, names)}`).join(', ') }];
    case 'path':
      return ['ProjectPath', { path: n(op.variable) }];
    case 'project':
      return ['Projection', { items: op.items.map((i) => `${expressionText(i.expression, names)} AS ${n(i.variable)}`).join(', ') }];
    case 'aggregate':
      return [
        op.aggregation.keys.length === 0 ? 'Aggregation' : 'EagerAggregation',
        {
          keys: op.aggregation.keys.map((k) => n(k.variable.id)).join(', '),
          aggregates: op.aggregation.aggregates.map((a) => expressionText(a.call, names)).join(', '),
        },
      ];
    case 'distinct':
      return ['Distinct', { columns: op.slots.map(n).join(', ') }];
    case 'sort':
      return ['Sort', { keys: op.keys.map((k) => `${expressionText(k.expression, names)} ${k.direction.toUpperCase()}`).join(', ') }];
    case 'top':
      return ['Top', { keys: op.keys.map((k) => `${expressionText(k.expression, names)} ${k.direction.toUpperCase()}`).join(', '), limit: expressionText(op.limit, names) }];
    case 'skip':
      return ['Skip', { count: expressionText(op.count, names) }];
    case 'limit':
      return ['Limit', { count: expressionText(op.count, names) }];
    case 'unwind':
      return ['Unwind', { expression: `${expressionText(op.expression, names)} AS ${n(op.variable)}` }];
    case 'load_csv':
      return [
        'LoadCSV',
        {
          url: expressionText(op.url, names),
          variable: n(op.variable),
          format: op.headers ? 'maps (WITH HEADERS)' : 'lists',
          ...(op.terminator !== ',' && { terminator: JSON.stringify(op.terminator) }),
        },
      ];
    case 'eager':
      return ['Eager', {}];
    case 'create':
      return ['Create', { paths: String(op.pattern.length) }];
    case 'merge':
      return ['Merge', {}];
    case 'set':
      return ['SetProperties', { items: String(op.items.length) }];
    case 'remove':
      return ['Remove', { items: String(op.items.length) }];
    case 'delete':
      return [op.detach ? 'DetachDelete' : 'Delete', { items: String(op.expressions.length) }];
    case 'call':
      return ['ProcedureCall', { procedure: op.procedure.name }];
    case 'union':
      return [op.all ? 'UnionAll' : 'Union', {}];
    case 'discard':
      return ['EmptyResult', {}];
    case 'produce':
      return ['ProduceResults', { columns: op.columns.map((c) => c.name).join(', ') }];
    default:
      return assertNever(op, 'logical operator');
  }
}

/** `SHORTEST 2`, `ANY $k`, `SHORTEST 1 GROUPS`. */
function selectorText(selector: PathSelector, count: BoundExpression | undefined, names: readonly string[]): string {
  const k = count !== undefined ? expressionText(count, names) : String(selector.count);
  return selector.kind === 'any' ? `ANY ${k}` : selector.kind === 'shortest' ? `SHORTEST ${k}` : `SHORTEST ${k} GROUPS`;
}

function renderTree(p: QueryPlan, depth: number): string {
  const own = Object.entries(p.details)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
  const line = `${'  '.repeat(depth)}+${p.operator}${own === '' ? '' : ` (${own})`} rows~${p.estimated_rows}`;
  return [line, ...p.children.map((c) => renderTree(c, depth + 1))].join('\n');
}

/** A short text of an expression for plan details (not a parser-exact rendering). */
export function expressionText(e: BoundExpression, names: readonly string[]): string {
  const t = (x: BoundExpression): string => expressionText(x, names);
  switch (e.kind) {
    case 'literal':
      return typeof e.value === 'string' ? `'${e.value}'` : String(e.value);
    case 'parameter':
      return `$${e.name}`;
    case 'variable':
      return name(e.variable.id, names);
    case 'property':
      return `${t(e.object)}.${e.key}`;
    case 'binary':
      return `${t(e.left)} ${BINARY_TEXT[e.op] ?? e.op} ${t(e.right)}`;
    case 'unary':
      return e.op === 'not' ? `NOT ${t(e.operand)}` : `${e.op === 'neg' ? '-' : '+'}${t(e.operand)}`;
    case 'function':
    case 'aggregate':
      return `${e.name}(${e.kind === 'aggregate' && e.star ? '*' : e.args.map(t).join(', ')})`;
    case 'has_labels':
      return `${t(e.subject)}:${e.labels.join(':')}`;
    case 'is_null':
      return `${t(e.operand)} IS ${e.negated ? 'NOT ' : ''}NULL`;
    case 'list':
      return `[${e.items.map(t).join(', ')}]`;
    default:
      return e.kind;
  }
}

const BINARY_TEXT: Partial<Record<string, string>> = {
  and: 'AND', or: 'OR', xor: 'XOR', eq: '=', neq: '<>', lt: '<', gt: '>', lte: '<=', gte: '>=', in: 'IN',
  add: '+', sub: '-', mul: '*', div: '/', mod: '%', pow: '^', regex: '=~', starts_with: 'STARTS WITH',
  ends_with: 'ENDS WITH', contains: 'CONTAINS',
};

/**
 * Index advice: a label scan that tests a property (folded into the scan by the property pass, or
 * a filter right above it) reads every node of the label, where an index would find the matches.
 * Equality gets a WARNING, other comparisons an INFO.
 */
export function indexSuggestions(plan: LogicalOp, indexes: IndexCatalog, names: readonly string[]): IndexSuggestion[] {
  const out = new Map<string, IndexSuggestion>();
  const add = (severity: SuggestionSeverity, label: string, property: string, variable: number): void => {
    if (indexes.hasIndex(label, [property])) return;
    const key = `${label}\u0000${property}`;
    const existing = out.get(key);
    if (existing !== undefined && (existing.severity === 'WARNING' || severity === 'INFO')) return;
    const v = name(variable, names);
    out.set(key, {
      severity,
      label,
      property,
      reason: `${severity === 'WARNING' ? 'Equality' : 'Range'} predicate on :${label}(${property}) scans every :${label} node (no index).`,
      statement: `CREATE INDEX ${indexName(label, property)} FOR (${v.startsWith('anon_') ? 'n' : v}:${label}) ON (${v.startsWith('anon_') ? 'n' : v}.${property})`,
    });
  };
  const visit = (op: LogicalOp): void => {
    if (op.op === 'node_scan' && op.label !== undefined) for (const p of op.props) add('WARNING', op.label, p.key, op.variable);
    if (op.op === 'filter' && op.input.op === 'node_scan' && op.input.label !== undefined) {
      const scan = op.input;
      for (const c of conjuncts(op.predicate)) {
        if (c.kind !== 'binary') continue;
        const sides = [c.left, c.right];
        for (const s of sides) {
          if (s.kind === 'property' && s.object.kind === 'variable' && s.object.variable.id === scan.variable) {
            const range = c.op === 'lt' || c.op === 'gt' || c.op === 'lte' || c.op === 'gte' || c.op === 'starts_with';
            if (c.op === 'eq' || c.op === 'in') add('WARNING', scan.label as string, s.key, scan.variable);
            else if (range) add('INFO', scan.label as string, s.key, scan.variable);
          }
        }
      }
    }
    for (const i of inputsOf(op)) visit(i);
  };
  visit(plan);
  return [...out.values()];
}

function indexName(label: string, property: string): string {
  const clean = (s: string): string => s.replace(/[^A-Za-z0-9_]/g, '_').toLowerCase();
  return `idx_${clean(label)}_${clean(property)}`;
}
