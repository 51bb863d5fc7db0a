import type { Clause, Projection } from '../../src/query/ast/clause.js';
import type { NodePattern, Pattern } from '../../src/query/ast/pattern.js';
import { isStorableProperty } from '../../src/common/values/storable.js';
import type { Expression } from '../../src/query/ast/expression.js';
import type { Statement } from '../../src/query/ast/statement.js';
import { equals } from '../../src/common/values/equality.js';
import { ValueHashMap, ValueHashSet } from '../../src/common/values/hash.js';
import { compareValues, orderCompare } from '../../src/common/values/order.js';
import { isNode, isTemporal, nodeRef, type Value } from '../../src/common/values/value.js';
import { parse } from '../../src/query/parse/index.js';
import { lookupFunction } from '../../src/query/functions/catalog.js';
import type { Accumulator, FunctionContext } from '../../src/query/functions/index.js';
import * as ops from '../../src/query/values/index.js';
import { runtimeTypeError } from '../../src/query/errors.js';
import type { TckEngine, TckGraphState, TckNodeDescription, TckRelationshipDescription, TckResult } from '../tck/engine.js';

/**
 * A graph-free engine for checking the function library and value operators against the TCK before
 * the real engine exists. It runs UNWIND, WITH and RETURN over expressions on literals and parameters,
 * with aggregation, DISTINCT, ORDER BY, SKIP and LIMIT; anything touching the graph is `Unsupported`.
 * It is a test fixture, not the evaluator: no planning, no binder checks.
 */
export class Unsupported extends Error {
  override readonly name = 'Unsupported';
}

type Row = ReadonlyMap<string, Value>;

const FIXED_INSTANT = { epochSecond: 1_700_000_000, nano: 123_456_789 };

interface StoredNode {
  readonly labels: Set<string>;
  readonly properties: Map<string, Value>;
}

/** Nodes only: relationships are out of this fixture's reach. */
let store = new Map<number, StoredNode>();
let nextId = 1;

function nodeOf(ref: { id: number }): StoredNode {
  const n = store.get(ref.id);
  if (n === undefined) throw new Error(`no node ${ref.id}`);
  return n;
}

const context: FunctionContext = {
  labelsOf: (n) => [...nodeOf(n).labels],
  typeOf: () => unsupported('type'),
  propertiesOf: (e) => (e.kind === 'node' ? nodeOf(e).properties : unsupported('relationship properties')),
  startNodeOf: () => unsupported('startNode'),
  endNodeOf: () => unsupported('endNode'),
  elementIdOf: () => unsupported('elementId'),
  clock: { statement: () => FIXED_INSTANT, transaction: () => FIXED_INSTANT, realtime: () => FIXED_INSTANT },
  defaultTimeZone: 'UTC',
  random: () => 0.5,
  loadCsv: { line: null, file: null },
};

function unsupported(what: string): never {
  throw new Unsupported(what);
}

export class LiteralEngine implements TckEngine {
  async reset(): Promise<void> {
    store = new Map();
    nextId = 1;
  }
  async graphState(): Promise<TckGraphState> {
    const nodes = new Map<number, TckNodeDescription>();
    for (const [id, n] of store) nodes.set(id, { labels: [...n.labels], properties: new Map(n.properties) });
    return { nodes, relationships: new Map() };
  }
  async describeNode(id: number): Promise<TckNodeDescription> {
    const n = nodeOf({ id });
    return { labels: [...n.labels], properties: n.properties };
  }
  async describeRelationship(): Promise<TckRelationshipDescription> {
    return unsupported('relationships');
  }
  async registerProcedure(): Promise<void> {
    unsupported('procedures');
  }
  async execute(query: string, params: ReadonlyMap<string, Value>): Promise<TckResult> {
    const statement: Statement = parse(query);
    if (statement.kind !== 'query' || statement.query.parts.length !== 1) unsupported('statement kind');
    const part = statement.query.parts[0];
    if (part === undefined) return unsupported('empty');
    let rows: Row[] = [new Map()];
    let columns: string[] = [];
    for (const clause of part.clauses) {
      const out = runClause(clause, rows, params);
      rows = out.rows;
      columns = out.columns;
    }
    const last = part.clauses[part.clauses.length - 1];
    if (last?.kind !== 'return') return { columns: [], rows: [] };
    return { columns, rows: rows.map((r) => columns.map((c) => r.get(c) ?? null)) };
  }
}

function runClause(clause: Clause, rows: Row[], params: ReadonlyMap<string, Value>): { rows: Row[]; columns: string[] } {
  switch (clause.kind) {
    case 'unwind': {
      const out: Row[] = [];
      for (const r of rows) {
        const list = evaluate(clause.expression, r, params);
        const items = list === null ? [] : Array.isArray(list) ? (list as readonly Value[]) : [list];
        for (const x of items) out.push(new Map(r).set(clause.variable, x));
      }
      return { rows: out, columns: [] };
    }
    case 'with': {
      const p = project(clause.projection, rows, params);
      const kept = clause.where === undefined ? p.rows : p.rows.filter((r) => evaluate(clause.where as Expression, r, params) === true);
      return { rows: kept, columns: p.columns };
    }
    case 'return':
      return project(clause.projection, rows, params);
    case 'create':
      return { rows: rows.map((r) => create(clause.pattern, r, params)), columns: [] };
    case 'match': {
      if (clause.optional) unsupported('OPTIONAL MATCH');
      let out = rows;
      for (const path of clause.pattern) {
        if (path.relationships.length > 0 || path.variable !== undefined) unsupported('relationship patterns');
        const node = path.nodes[0] as NodePattern;
        out = out.flatMap((r) => matchNode(node, r, params));
      }
      if (clause.where !== undefined) out = out.filter((r) => evaluate(clause.where as Expression, r, params) === true);
      return { rows: out, columns: [] };
    }
    default:
      return unsupported(clause.kind);
  }
}

function propertiesOf(p: NodePattern, row: Row, params: ReadonlyMap<string, Value>): ReadonlyMap<string, Value> {
  if (p.properties === undefined) return new Map();
  const m = evaluate(p.properties, row, params);
  if (!(m instanceof Map)) return unsupported('non-map properties');
  return m as ReadonlyMap<string, Value>;
}

function create(pattern: Pattern, row: Row, params: ReadonlyMap<string, Value>): Row {
  const out = new Map(row);
  for (const path of pattern) {
    if (path.relationships.length > 0 || path.variable !== undefined) unsupported('relationship patterns');
    const p = path.nodes[0] as NodePattern;
    if (p.variable !== undefined && out.has(p.variable)) continue;
    const properties = new Map<string, Value>();
    for (const [k, v] of propertiesOf(p, out, params)) {
      if (v === null) continue;
      if (!isStorableProperty(v)) throw runtimeTypeError('InvalidPropertyType', `cannot store ${k}`);
      properties.set(k, v);
    }
    const id = nextId++;
    store.set(id, { labels: new Set(p.labels), properties });
    if (p.variable !== undefined) out.set(p.variable, nodeRef(id));
  }
  return out;
}

function matchNode(p: NodePattern, row: Row, params: ReadonlyMap<string, Value>): Row[] {
  const wanted = propertiesOf(p, row, params);
  const out: Row[] = [];
  for (const [id, n] of store) {
    if (!p.labels.every((l) => n.labels.has(l))) continue;
    if (![...wanted].every(([k, v]) => equals(n.properties.get(k) ?? null, v) === true)) continue;
    if (p.variable === undefined) out.push(row);
    else {
      const bound = row.get(p.variable);
      if (bound !== undefined && !(isNode(bound) && bound.id === id)) continue;
      out.push(new Map(row).set(p.variable, nodeRef(id)));
    }
  }
  return out;
}

function isAggregate(e: Expression): boolean {
  switch (e.kind) {
    case 'count_star':
      return true;
    case 'function':
      return lookupFunction(e.name)?.kind === 'aggregate' || e.args.some(isAggregate);
    case 'binary':
      return isAggregate(e.left) || isAggregate(e.right);
    case 'unary':
      return isAggregate(e.operand);
    case 'list':
      return e.items.some(isAggregate);
    case 'map':
      return e.entries.some((x) => isAggregate(x.value));
    case 'property':
      return isAggregate(e.object);
    default:
      return false;
  }
}

function project(p: Projection, rows: Row[], params: ReadonlyMap<string, Value>): { rows: Row[]; columns: string[] } {
  if (p.star) unsupported('*');
  const columns = p.items.map((i) => i.alias ?? i.text);
  let out: Row[];
  if (p.items.some((i) => isAggregate(i.expression))) {
    const keys = p.items.filter((i) => !isAggregate(i.expression));
    const groups = new ValueHashMap<{ row: Row; members: Row[] }>();
    for (const r of rows) {
      const key = keys.map((k) => evaluate(k.expression, r, params));
      groups.getOrCreate(key, () => ({ row: r, members: [] })).members.push(r);
    }
    if (keys.length === 0 && groups.size === 0) groups.set([], { row: new Map(), members: [] });
    out = [];
    for (const [, g] of groups.entries()) {
      const row = new Map<string, Value>();
      p.items.forEach((item, i) => row.set(columns[i] as string, evaluateAggregate(item.expression, g.row, g.members, params)));
      out.push(row);
    }
  } else {
    out = rows.map((r) => {
      const row = new Map<string, Value>();
      p.items.forEach((item, i) => row.set(columns[i] as string, evaluate(item.expression, r, params)));
      return row;
    });
  }
  if (p.distinct) {
    const seen = new ValueHashSet();
    out = out.filter((r) => seen.add(columns.map((c) => r.get(c) ?? null)));
  }
  if (p.order.length > 0) {
    const keyed = out.map((r) => ({ r, keys: p.order.map((o) => evaluate(o.expression, new Map([...r]), params)) }));
    keyed.sort((a, b) => {
      for (let i = 0; i < p.order.length; i++) {
        const c = orderCompare(a.keys[i] as Value, b.keys[i] as Value);
        if (c !== 0) return p.order[i]?.direction === 'desc' ? -c : c;
      }
      return 0;
    });
    out = keyed.map((k) => k.r);
  }
  const skip = p.skip === undefined ? 0 : ops.asRowCount(evaluate(p.skip, new Map(), params), 'SKIP');
  const limit = p.limit === undefined ? Infinity : ops.asRowCount(evaluate(p.limit, new Map(), params), 'LIMIT');
  return { rows: out.slice(skip, skip + limit), columns };
}

function evaluateAggregate(e: Expression, row: Row, members: Row[], params: ReadonlyMap<string, Value>): Value {
  if (e.kind === 'count_star') return BigInt(members.length);
  if (e.kind === 'function') {
    const f = lookupFunction(e.name);
    if (f?.kind === 'aggregate') {
      const acc: Accumulator = f.create({ distinct: e.distinct });
      for (const m of members) {
        const v = e.args[0] === undefined ? null : evaluate(e.args[0], m, params);
        const extra = e.args[1] === undefined ? undefined : evaluate(e.args[1], m, params);
        acc.add(v, extra);
      }
      return acc.result();
    }
  }
  if (!isAggregate(e)) return evaluate(e, row, params);
  // An expression around aggregates: evaluate its aggregate parts first.
  const substituted = new Map(row);
  const rewrite = (x: Expression): Expression => {
    if (x.kind === 'count_star' || (x.kind === 'function' && lookupFunction(x.name)?.kind === 'aggregate')) {
      const name = `\u0000agg${substituted.size}`;
      substituted.set(name, evaluateAggregate(x, row, members, params));
      return { kind: 'variable', name, span: x.span };
    }
    switch (x.kind) {
      case 'binary':
        return { ...x, left: rewrite(x.left), right: rewrite(x.right) };
      case 'unary':
        return { ...x, operand: rewrite(x.operand) };
      case 'function':
        return { ...x, args: x.args.map(rewrite) };
      case 'list':
        return { ...x, items: x.items.map(rewrite) };
      case 'property':
        return { ...x, object: rewrite(x.object) };
      case 'map':
        return { ...x, entries: x.entries.map((en) => ({ key: en.key, value: rewrite(en.value) })) };
      default:
        return x;
    }
  };
  return evaluate(rewrite(e), substituted, params);
}

function truthy(v: Value): boolean {
  return ops.asPredicate(v) === true;
}

export function evaluate(e: Expression, row: Row, params: ReadonlyMap<string, Value>): Value {
  const ev = (x: Expression, r: Row = row): Value => evaluate(x, r, params);
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'list':
      return e.items.map((x) => ev(x));
    case 'map':
      return new Map(e.entries.map((en) => [en.key, ev(en.value)] as const));
    case 'parameter': {
      if (!params.has(e.name)) unsupported(`parameter ${e.name}`);
      return params.get(e.name) ?? null;
    }
    case 'variable': {
      if (!row.has(e.name)) unsupported(`variable ${e.name}`);
      return row.get(e.name) ?? null;
    }
    case 'property': {
      const o = ev(e.object);
      if (isNode(o)) return nodeOf(o).properties.get(e.key) ?? null;
      return ops.staticProperty(o, e.key);
    }
    case 'index': {
      const o = ev(e.object);
      const i = ev(e.index);
      if (isNode(o)) return typeof i === 'string' ? (nodeOf(o).properties.get(i) ?? null) : unsupported('node index');
      return ops.subscript(o, i);
    }
    case 'slice': {
      const o = ev(e.object);
      if (o === null) return null;
      if (!Array.isArray(o)) return unsupported('slice');
      return ops.listSlice(o as readonly Value[], e.from === undefined ? undefined : ev(e.from), e.to === undefined ? undefined : ev(e.to));
    }
    case 'unary': {
      const v = ev(e.operand);
      return e.op === 'not' ? ops.not3(v) : e.op === 'neg' ? ops.negate(v) : ops.unaryPlus(v);
    }
    case 'is_null': {
      const isNull = ev(e.operand) === null;
      return e.negated ? !isNull : isNull;
    }
    case 'binary':
      return binary(e.op, e.left, e.right, ev);
    case 'function': {
      const f = lookupFunction(e.name);
      if (f === undefined || f.kind !== 'scalar') return unsupported(`function ${e.name}`);
      if (e.args.length < f.min_args || e.args.length > f.max_args) unsupported('arity');
      return f.call(
        e.args.map((x) => ev(x)),
        context,
      );
    }
    case 'case': {
      if (e.subject !== undefined) {
        const s = ev(e.subject);
        for (const alt of e.alternatives) if (equals(s, ev(alt.when)) === true) return ev(alt.then);
      } else {
        for (const alt of e.alternatives) if (ev(alt.when) === true) return ev(alt.then);
      }
      return e.otherwise === undefined ? null : ev(e.otherwise);
    }
    case 'list_comprehension': {
      const src = ev(e.source);
      if (src === null) return null;
      if (!Array.isArray(src)) return unsupported('comprehension over non-list');
      const out: Value[] = [];
      for (const x of src as readonly Value[]) {
        const r = new Map(row).set(e.variable, x);
        if (e.where !== undefined && !truthy(ev(e.where, r))) continue;
        out.push(e.projection === undefined ? x : ev(e.projection, r));
      }
      return out;
    }
    case 'quantifier': {
      const src = ev(e.source);
      if (src === null) return null;
      if (!Array.isArray(src)) return unsupported('quantifier over non-list');
      let t = 0;
      let u = 0;
      for (const x of src as readonly Value[]) {
        const r = e.where === undefined ? true : ops.asPredicate(ev(e.where, new Map(row).set(e.variable, x)));
        if (r === true) t++;
        else if (r === null) u++;
      }
      const n = (src as readonly Value[]).length;
      switch (e.quantifier) {
        case 'all':
          return t === n ? true : t + u === n ? null : false;
        case 'any':
          return t > 0 ? true : u > 0 ? null : false;
        case 'none':
          return t > 0 ? false : u > 0 ? null : true;
        case 'single':
          return t > 1 ? false : u > 0 ? null : t === 1;
      }
      return null;
    }
    case 'reduce': {
      let acc = ev(e.initial);
      const src = ev(e.source);
      if (src === null) return null;
      for (const x of src as readonly Value[]) acc = ev(e.step, new Map(row).set(e.accumulator, acc).set(e.variable, x));
      return acc;
    }
    default:
      return unsupported(e.kind);
  }
}

function binary(op: string, l: Expression, r: Expression, ev: (x: Expression) => Value): Value {
  switch (op) {
    case 'and':
      return ops.and3(ev(l), ev(r));
    case 'or':
      return ops.or3(ev(l), ev(r));
    case 'xor':
      return ops.xor3(ev(l), ev(r));
    default:
      break;
  }
  const a = ev(l);
  const b = ev(r);
  switch (op) {
    case 'eq':
      return equals(a, b);
    case 'neq': {
      const x = equals(a, b);
      return x === null ? null : !x;
    }
    case 'lt':
    case 'gt':
    case 'lte':
    case 'gte': {
      const c = compareValues(a, b);
      if (c === null) return null;
      return op === 'lt' ? c < 0 : op === 'gt' ? c > 0 : op === 'lte' ? c <= 0 : c >= 0;
    }
    case 'in':
      return ops.inList(a, b);
    case 'starts_with':
      return ops.startsWith(a, b);
    case 'ends_with':
      return ops.endsWith(a, b);
    case 'contains':
      return ops.contains(a, b);
    case 'regex':
      return ops.regexMatch(a, b);
    case 'add':
      return ops.add(a, b);
    case 'sub':
      return ops.subtract(a, b);
    case 'mul':
      return ops.multiply(a, b);
    case 'div':
      return ops.divide(a, b);
    case 'mod':
      return ops.modulo(a, b);
    case 'pow':
      return ops.power(a, b);
    default:
      return unsupported(op);
  }
}
