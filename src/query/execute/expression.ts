import { assert, assertNever } from '../../common/assert.js';
import { equals } from '../../common/values/equality.js';
import { compareValues } from '../../common/values/order.js';
import { isNode, isRelationship, typeName, type NodeRef, type RelationshipRef, type Value } from '../../common/values/value.js';
import type { LabelMembers } from '../../projections/graph/records.js';
import type { BinaryOperator } from '../ast/expression.js';
import type { BoundExpression, BoundMapProjectionItem } from '../bind/bound-expression.js';
import { CypherError, runtimeTypeError } from '../errors.js';
import { lookupFunction } from '../functions/catalog.js';
import type { ScalarFunction } from '../functions/definition.js';
import { add, divide, modulo, multiply, negate, power, subtract, unaryPlus } from '../values/arithmetic.js';
import { asPredicate, contains, endsWith, inList, listSlice, not3, regexMatch, startsWith } from '../values/coerce.js';
import { staticProperty, subscript } from '../values/access.js';
import type { LogicalOp } from '../plan/logical.js';
import type { Evaluator, ExecContext, PhysicalOp, Row } from './context.js';
import { finish } from './slices.js';
import { COLUMN_ASK_READS, type GraphAccess } from './graph-access.js';
import { compileTextFunction } from './text-functions.js';

/**
 * The properties of the node a fused scan is at: `read(key)` evaluates `n.key` for the node in slot
 * `slot` without looking at the row, valid while the scan has not moved on.
 */
export interface ScanColumns {
  readonly slot: number;
  read(key: string): Evaluator;
}

/**
 * Compiles a bound expression into a closure over rows, once per execution, so that rows are
 * evaluated without walking the tree again. Nested patterns (pattern predicates, comprehensions,
 * EXISTS) are planned and compiled on first use and run with the current row as their argument.
 */
export class ExpressionCompiler {
  constructor(
    private readonly cx: ExecContext,
    private readonly access: GraphAccess,
    /** Reads of one scanned node's properties that a fused scan serves from columns (see column-scan.ts). */
    private readonly scan?: ScanColumns,
  ) {}

  /** A compiler whose reads of `scan.slot`'s properties come from `scan` instead of the node. */
  overScan(scan: ScanColumns): ExpressionCompiler {
    return new ExpressionCompiler(this.cx, this.access, scan);
  }

  compile(e: BoundExpression): Evaluator {
    switch (e.kind) {
      case 'literal': {
        const v = e.value;
        return () => v;
      }
      case 'parameter': {
        const name = e.name;
        const params = this.cx.params;
        if (!params.has(name)) throw missingParameter(name);
        const v = params.get(name) as Value;
        return () => v;
      }
      case 'variable': {
        const id = e.variable.id;
        return (row) => row[id] as Value;
      }
      case 'list': {
        const items = e.items.map((i) => this.compile(i));
        return (row) => items.map((f) => f(row));
      }
      case 'map': {
        const entries = e.entries.map((x) => [x.key, this.compile(x.value)] as const);
        return (row) => {
          const m = new Map<string, Value>();
          for (const [k, f] of entries) m.set(k, f(row));
          return m;
        };
      }
      case 'property':
        if (e.object.kind === 'variable' && e.object.variable.id === this.scan?.slot) return this.scan.read(e.key);
        if (e.object.kind === 'variable' && e.object.variable.type.kind === 'node') return this.nodeVariableProperty(e.object.variable.id, e.key);
        return this.property(this.compile(e.object), e.key);
      case 'index': {
        const object = this.compile(e.object);
        const index = this.compile(e.index);
        const access = this.access;
        return (row) => {
          const o = object(row);
          const i = index(row);
          if (o !== null && (isNode(o) || isRelationship(o))) {
            if (i === null) return null;
            if (typeof i !== 'string') throw runtimeTypeError('InvalidArgumentType', `a ${typeName(o)} is indexed by a STRING, not ${typeName(i)}`);
            return access.property(o, i);
          }
          return subscript(o, i);
        };
      }
      case 'slice': {
        const object = this.compile(e.object);
        const from = e.from ? this.compile(e.from) : undefined;
        const to = e.to ? this.compile(e.to) : undefined;
        return (row) => {
          const o = object(row);
          const f = from?.(row);
          const t = to?.(row);
          if (o === null) return null;
          if (!Array.isArray(o)) throw runtimeTypeError('InvalidArgumentType', `cannot slice ${typeName(o)}`);
          return listSlice(o as readonly Value[], f, t);
        };
      }
      case 'has_labels': {
        const subject = this.compile(e.subject);
        const labels = e.labels;
        const access = this.access;
        // One label, tested often (a labelled end of an expand): the label's bitmap by node id,
        // asked for as `nodeVariableProperty` asks for columns.
        const one = labels.length === 1 ? (labels[0] as string) : undefined;
        let bits = one === undefined ? undefined : access.labelBitmap(one, 0);
        let reads = 0;
        return (row) => {
          const s = subject(row);
          if (s === null) return null;
          // On a relationship (Neo4j 5 label expressions) each name is tested against its one type.
          if (isRelationship(s)) return labels.every((l) => l === access.relationshipType(s.id));
          if (!isNode(s)) throw runtimeTypeError('InvalidArgumentType', `labels are checked on a NODE or RELATIONSHIP, not ${typeName(s)}`);
          if (one !== undefined) {
            if (bits !== undefined && s.id < bits.length) return bits[s.id] === 1;
            if (bits === undefined && ++reads >= COLUMN_ASK_READS) {
              bits = access.labelBitmap(one, reads);
              reads = 0;
            }
          }
          const n = access.node(s.id);
          if (n === undefined) return false;
          for (const l of labels) if (!n.labels.includes(l)) return false;
          return true;
        };
      }
      case 'unary': {
        const operand = this.compile(e.operand);
        switch (e.op) {
          case 'not':
            return (row) => not3(operand(row));
          case 'neg':
            return (row) => negate(operand(row));
          default:
            return (row) => unaryPlus(operand(row));
        }
      }
      case 'binary':
        return this.binary(e.op, this.compile(e.left), this.compile(e.right));
      case 'is_null': {
        const operand = this.compile(e.operand);
        return e.negated ? (row) => operand(row) !== null : (row) => operand(row) === null;
      }
      case 'function':
        if (e.name === 'text_match' || e.name === 'text_score') return compileTextFunction(e.name, e.args, (x) => this.compile(x), this.cx, this.access);
        return this.function(e.name, e.args.map((a) => this.compile(a)));
      case 'aggregate':
        assert(false, 'aggregate calls are evaluated by the aggregation operator');
        return () => null;
      case 'case':
        return this.caseExpression(e);
      case 'list_comprehension': {
        const source = this.compile(e.source);
        const where = e.where ? this.compile(e.where) : undefined;
        const projection = e.projection ? this.compile(e.projection) : undefined;
        const slot = e.variable.id;
        const deadline = this.cx.deadline;
        return (row) => {
          const list = source(row);
          if (list === null) return null;
          const items = asList(list);
          const out: Value[] = [];
          for (const x of items) {
            deadline.tick();
            row[slot] = x;
            if (where !== undefined && asPredicate(where(row)) !== true) continue;
            out.push(projection === undefined ? x : projection(row));
          }
          return out;
        };
      }
      case 'quantifier':
        return this.quantifier(e);
      case 'reduce': {
        const initial = this.compile(e.initial);
        const source = this.compile(e.source);
        const step = this.compile(e.step);
        const acc = e.accumulator.id;
        const slot = e.variable.id;
        const memory = this.cx.memory;
        const deadline = this.cx.deadline;
        return (row) => {
          let value = initial(row);
          const list = source(row);
          if (list === null) return null;
          for (const x of asList(list)) {
            deadline.tick();
            row[acc] = value;
            row[slot] = x;
            value = step(row);
            // A list or string accumulator can double each step; stop it at the budget.
            if (Array.isArray(value)) memory.checkTransient(16 * (value as readonly Value[]).length);
            else if (typeof value === 'string') memory.checkTransient(2 * value.length);
          }
          return value;
        };
      }
      case 'pattern_predicate': {
        const plan = this.lazyPlan(() => this.cx.planner.pattern([e.path], undefined));
        return (row) => exists(plan(), row);
      }
      case 'exists_subquery': {
        const body = e.body;
        const plan = this.lazyPlan(() =>
          body.kind === 'pattern' ? this.cx.planner.pattern(body.pattern, body.where) : this.cx.planner.query(body.query),
        );
        switch (e.measure) {
          case 'count':
            return (row) => countRows(plan(), row);
          case 'exists':
            return (row) => exists(plan(), row);
          case 'collect': {
            // The bound body returns one column; UNION parts are renamed to the first part's slot.
            const slot = (body.kind === 'query' ? body.query.parts[0]?.columns[0]?.variable.id : undefined) as number;
            const memory = this.cx.memory;
            return (row) => {
              const out: Value[] = [];
              finish(
                plan()(row.slice(), (r) => {
                  out.push(r[slot] as Value);
                  if ((out.length & 1023) === 0) memory.checkTransient(16 * out.length);
                  return true;
                }),
              );
              return out;
            };
          }
          default:
            return assertNever(e.measure, 'subquery measure');
        }
      }
      case 'pattern_comprehension': {
        const plan = this.lazyPlan(() => this.cx.planner.pattern([e.path], e.where, e.projection));
        const projection = this.compile(e.projection);
        const memory = this.cx.memory;
        return (row) => {
          const out: Value[] = [];
          finish(
            plan()(row.slice(), (r) => {
              out.push(projection(r));
              if ((out.length & 1023) === 0) memory.checkTransient(16 * out.length);
              return true;
            }),
          );
          return out;
        };
      }
      case 'map_projection':
        return this.mapProjection(e.subject.id, e.items);
      default:
        return assertNever(e, 'bound expression');
    }
  }

  /** A predicate: true, false or null; anything else is a type error. */
  predicate(e: BoundExpression): (row: Row) => boolean {
    const f = this.compile(e);
    return (row) => asPredicate(f(row)) === true;
  }

  private lazyPlan(make: () => LogicalOp): () => PhysicalOp {
    let op: PhysicalOp | undefined;
    return () => (op ??= this.cx.subplan(make()));
  }

  /** `n.key` where the binder knows `n` holds a node (or null): the common case, kept short. */
  private nodeVariableProperty(slot: number, key: string): Evaluator {
    const access = this.access;
    const general = this.property((row) => row[slot] as Value, key);
    // The column of `key` in the kept label list the scan last read from. It is asked for only once
    // this evaluator has read an eighth of the list's nodes, so a selective query never builds one.
    let members: LabelMembers | undefined;
    let column: readonly (Value | undefined)[] | undefined;
    let reads = 0;
    /** The scan cache had no room for the column: read the nodes' maps for the rest of this list. */
    let refused = false;
    // Reads of nodes a scan did not just produce (the end of an expand): every node's value by id,
    // asked for every COLUMN_ASK_READS reads until the store has one (it builds it once the reads
    // add up to an eighth of the nodes).
    let byId = access.nodeColumn(key, 0);
    let idReads = 0;
    const readById = (id: number): Value => {
      if (byId !== undefined) return id < byId.length ? (byId[id] ?? null) : access.nodeProperty(id, key);
      if (++idReads >= COLUMN_ASK_READS) {
        byId = access.nodeColumn(key, idReads);
        idReads = 0;
      }
      return access.nodeProperty(id, key);
    };
    return (row) => {
      const o = row[slot] as Value;
      if (o === null) return null;
      if ((o as NodeRef).kind !== 'node') return general(row);
      const id = (o as NodeRef).id;
      const from = access.scannedFrom(id);
      if (from === undefined) return readById(id);
      if (from !== members) {
        members = from;
        column = undefined;
        reads = 0;
        refused = false;
      }
      if (column === undefined) {
        if (refused || ++reads * 8 < from.nodes.length) return access.nodeProperty(id, key);
        column = from.column(key);
        if (column === undefined) {
          refused = true;
          return access.nodeProperty(id, key);
        }
      }
      return column[access.scannedPosition] ?? null;
    };
  }

  private property(object: Evaluator, key: string): Evaluator {
    const access = this.access;
    return (row) => {
      const o = object(row);
      if (o === null) return null;
      if (typeof o === 'object' && (o as { kind?: unknown }).kind === 'node') return access.property(o as NodeRef, key);
      if (typeof o === 'object' && (o as { kind?: unknown }).kind === 'relationship') return access.property(o as RelationshipRef, key);
      return staticProperty(o, key);
    };
  }

  private binary(op: BinaryOperator, l: Evaluator, r: Evaluator): Evaluator {
    switch (op) {
      case 'and':
        return (row) => {
          const a = asPredicate(l(row));
          if (a === false) return false;
          const b = asPredicate(r(row));
          if (b === false) return false;
          return a === null || b === null ? null : true;
        };
      case 'or':
        return (row) => {
          const a = asPredicate(l(row));
          if (a === true) return true;
          const b = asPredicate(r(row));
          if (b === true) return true;
          return a === null || b === null ? null : false;
        };
      case 'xor':
        return (row) => {
          const a = asPredicate(l(row));
          const b = asPredicate(r(row));
          return a === null || b === null ? null : a !== b;
        };
      case 'eq':
        return (row) => equals(l(row), r(row));
      case 'neq':
        return (row) => {
          const x = equals(l(row), r(row));
          return x === null ? null : !x;
        };
      case 'lt':
        return (row) => {
          const c = compareValues(l(row), r(row));
          return c === null ? null : c < 0;
        };
      case 'gt':
        return (row) => {
          const c = compareValues(l(row), r(row));
          return c === null ? null : c > 0;
        };
      case 'lte':
        return (row) => {
          const c = compareValues(l(row), r(row));
          return c === null ? null : c <= 0;
        };
      case 'gte':
        return (row) => {
          const c = compareValues(l(row), r(row));
          return c === null ? null : c >= 0;
        };
      case 'regex':
        return (row) => regexMatch(l(row), r(row));
      case 'starts_with':
        return (row) => startsWith(l(row), r(row));
      case 'ends_with':
        return (row) => endsWith(l(row), r(row));
      case 'contains':
        return (row) => contains(l(row), r(row));
      case 'in':
        return (row) => inList(l(row), r(row));
      case 'add':
        return (row) => add(l(row), r(row));
      case 'sub':
        return (row) => subtract(l(row), r(row));
      case 'mul':
        return (row) => multiply(l(row), r(row));
      case 'div':
        return (row) => divide(l(row), r(row));
      case 'mod':
        return (row) => modulo(l(row), r(row));
      case 'pow':
        return (row) => power(l(row), r(row));
      default:
        return assertNever(op, 'binary operator');
    }
  }

  private function(name: string, args: readonly Evaluator[]): Evaluator {
    if (name === ' props_match') return this.propsMatch(args[0] as Evaluator, args[1] as Evaluator);
    const def = lookupFunction(name);
    if (def === undefined || def.kind !== 'scalar') {
      throw new CypherError('SyntaxError', 'compile time', 'UnknownFunction', `unknown function ${name}()`);
    }
    const f: ScalarFunction = def;
    const ctx = this.cx.functions;
    const call = f.call;
    switch (args.length) {
      case 0:
        return () => call([], ctx);
      case 1: {
        const a = args[0] as Evaluator;
        return (row) => call([a(row)], ctx);
      }
      case 2: {
        const a = args[0] as Evaluator;
        const b = args[1] as Evaluator;
        return (row) => call([a(row), b(row)], ctx);
      }
      default:
        return (row) => call(args.map((a) => a(row)), ctx);
    }
  }

  /** `(n $props)` in a pattern: every entry of the map equals the entity's property. */
  private propsMatch(entity: Evaluator, map: Evaluator): Evaluator {
    const access = this.access;
    return (row) => {
      const e = entity(row);
      const m = map(row);
      if (e === null || m === null) return null;
      if (!(m instanceof Map)) throw runtimeTypeError('InvalidArgumentType', `a pattern's properties must be a MAP, not ${typeName(m)}`);
      let unknown = false;
      for (const [k, v] of m as ReadonlyMap<string, Value>) {
        const r = equals(access.property(e as NodeRef | RelationshipRef, k), v);
        if (r === false) return false;
        if (r === null) unknown = true;
      }
      return unknown ? null : true;
    };
  }

  private caseExpression(e: Extract<BoundExpression, { kind: 'case' }>): Evaluator {
    const subject = e.subject ? this.compile(e.subject) : undefined;
    const alts = e.alternatives.map((a) => ({ when: this.compile(a.when), then: this.compile(a.then) }));
    const otherwise = e.otherwise ? this.compile(e.otherwise) : undefined;
    if (subject !== undefined) {
      return (row) => {
        const s = subject(row);
        for (const a of alts) if (equals(s, a.when(row)) === true) return a.then(row);
        return otherwise === undefined ? null : otherwise(row);
      };
    }
    return (row) => {
      for (const a of alts) if (asPredicate(a.when(row)) === true) return a.then(row);
      return otherwise === undefined ? null : otherwise(row);
    };
  }

  private quantifier(e: Extract<BoundExpression, { kind: 'quantifier' }>): Evaluator {
    const source = this.compile(e.source);
    const where = e.where ? this.compile(e.where) : () => true;
    const slot = e.variable.id;
    const kind = e.quantifier;
    return (row) => {
      const list = source(row);
      if (list === null) return null;
      let trues = 0;
      let nulls = 0;
      const items = asList(list);
      for (const x of items) {
        row[slot] = x;
        const p = asPredicate(where(row));
        if (p === true) {
          trues++;
          if (kind === 'any') return true;
          if (kind === 'none') return false;
          if (kind === 'single' && trues > 1) return false;
        } else if (p === null) nulls++;
        else if (kind === 'all') return false;
      }
      switch (kind) {
        case 'all':
          return nulls > 0 ? null : true;
        case 'any':
          return nulls > 0 ? null : false;
        case 'none':
          return nulls > 0 ? null : true;
        case 'single':
          return nulls > 0 ? null : trues === 1;
        default:
          return assertNever(kind, 'quantifier');
      }
    };
  }

  private mapProjection(subject: number, items: readonly BoundMapProjectionItem[]): Evaluator {
    const access = this.access;
    const ctx = this.cx.functions;
    const compiled = items.map((i) => (i.kind === 'entry' ? { item: i, value: this.compile(i.value) } : { item: i, value: undefined }));
    return (row) => {
      const s = row[subject] as Value;
      if (s === null) return null;
      const entity = isNode(s) || isRelationship(s);
      if (!entity && !(s instanceof Map)) throw runtimeTypeError('InvalidArgumentType', `a map projection needs a MAP, NODE or RELATIONSHIP, not ${typeName(s)}`);
      const props = (): ReadonlyMap<string, Value> => (entity ? ctx.propertiesOf(s as NodeRef) : (s as ReadonlyMap<string, Value>));
      const out = new Map<string, Value>();
      for (const { item, value } of compiled) {
        switch (item.kind) {
          case 'entry':
            out.set(item.key, (value as Evaluator)(row));
            break;
          case 'property':
            out.set(item.key, entity ? access.property(s as NodeRef, item.key) : (props().get(item.key) ?? null));
            break;
          case 'all_properties':
            for (const [k, v] of props()) out.set(k, v);
            break;
          case 'variable':
            out.set(item.key, row[item.variable.id] as Value);
            break;
          default:
            assertNever(item, 'map projection item');
        }
      }
      return out;
    };
  }
}

function exists(plan: PhysicalOp, row: Row): boolean {
  let found = false;
  // An expression's value is needed now: its plan runs to its end without pausing.
  finish(
    plan(row.slice(), () => {
      found = true;
      return false;
    }),
  );
  return found;
}

/** The number of rows a subquery's plan produces for one outer row (COUNT { ... }). */
function countRows(plan: PhysicalOp, row: Row): bigint {
  let n = 0;
  finish(
    plan(row.slice(), () => {
      n++;
      return true;
    }),
  );
  return BigInt(n);
}

/**
 * What a comprehension, quantifier or reduce iterates: a list, or any other value as a list of itself,
 * as Neo4j does (`any(x IN n.tags WHERE ...)` over a property that holds one string). A value known not
 * to be a list before running is refused by the binder instead.
 */
function asList(v: Value): readonly Value[] {
  return Array.isArray(v) ? (v as readonly Value[]) : [v];
}

export function missingParameter(name: string): CypherError {
  return new CypherError('ParameterMissing', 'compile time', 'MissingParameter', `the parameter $${name} was not given`);
}
