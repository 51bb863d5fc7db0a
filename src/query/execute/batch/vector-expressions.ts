import type { Value } from '../../../common/values/value.js';
import type { BoundExpression } from '../../bind/bound-expression.js';
import { Batch, BATCH_ROWS, NULL_BOOL, NULL_ID, valueBuffer, type EntityKind, type Vec } from './batch.js';
import type { Evaluator, Row } from '../context.js';
import { perValue } from './per-value.js';
import { callNumbers, divide, modulo, numBinary, NUMBER_FUNCTIONS } from './vector-functions.js';
import { EXACT_INTEGER_MAX, type TypedColumn } from './typed-columns.js';

/**
 * Expressions over batches: each compiles once per run to a closure that fills its own typed buffer
 * for every row of a batch in one loop. Covered: property reads of the pipeline's nodes, literals and
 * parameters, comparisons, + - * and negation, AND/OR/XOR/NOT and IS [NOT] NULL, whenever the
 * operands' types make the answer certain without boxing (numbers with numbers, strings compared for
 * equality by dictionary code), CASE whose conditions are typed and whose results are all numbers or
 * all string literals, and the number kernels of vector-functions.ts (/ % and common number functions).
 * Integer arithmetic is typed only while the operands' known bounds keep the result below 2^53, so it can
 * neither overflow nor lose exactness; a typed expression never fails and never holds NaN. Anything else
 * (a division that could fail, other functions, mixed types) is evaluated once per value (per-value.ts) or per
 * row by the row evaluator, which gives it the same semantics as the row-at-a-time operators.
 */
type NumVec = Extract<Vec, { kind: 'num' }>;
type BoolVec = Extract<Vec, { kind: 'bool' }>;
type CodeVec = Extract<Vec, { kind: 'code' }>;
type AnyVec = Extract<Vec, { kind: 'any' }>;

export type Compiled =
  | {
      readonly kind: 'num';
      /** INTEGER values (else FLOAT, never NaN); then every value's magnitude is at most `max_abs` < 2^53. */
      readonly integer: boolean;
      /** Every value's magnitude is at most this; for FLOATs, Infinity when a value may be infinite. */
      readonly max_abs: number;
      /** Every value's magnitude is at least this: above 0, no value is zero (a divisor that cannot fail). */
      readonly min_abs: number;
      /** No row is ever null: the vector's `nulls` stay all 0, and the loops that merge them are skipped. */
      readonly no_nulls?: true;
      readonly run: (b: Batch) => NumVec;
    }
  | { readonly kind: 'bool'; readonly run: (b: Batch) => BoolVec }
  | { readonly kind: 'code'; readonly dictionary: readonly string[]; readonly index: ReadonlyMap<string, number>; readonly run: (b: Batch) => CodeVec }
  /** A string constant: typed only as an operand of = and <> against a code vector. */
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'any'; readonly run: (b: Batch) => AnyVec };

/** A compiled expression that can run over a batch (a bare string constant cannot). */
export type Vectorized = Exclude<Compiled, { kind: 'text' }>;

/**
 * Where an entity slot sits in a batch. `nullable`: the column may hold NULL_ID (an OPTIONAL MATCH that found
 * nothing), whose properties are null. `type`: a relationship column's one type.
 */
export interface SlotPosition {
  readonly column: number;
  readonly entity: EntityKind;
  readonly nullable: boolean;
  readonly type?: string;
}

export interface VectorScope {
  /** The batch column of an entity slot, when the pipeline binds it. */
  position(slot: number): SlotPosition | undefined;
  /** The typed column of a node's or relationship's property by id, or undefined when the store keeps none. */
  columnOf(slot: number, key: string): TypedColumn | undefined;
  readonly params: ReadonlyMap<string, Value>;
  /** `e` evaluated row by row by the row evaluator. */
  generic(e: BoundExpression): (b: Batch) => Value[];
  /** The argument row of the run (its values are fixed while the pipeline runs). */
  readonly arg: Row;
  /** The row evaluator of `e`, over rows shaped like `arg`. */
  evaluator(e: BoundExpression): Evaluator;
}

/** `e` over batches: typed where it can be, row by row otherwise. */
export function compileVector(e: BoundExpression, scope: VectorScope): Vectorized {
  const t = typed(e, scope);
  if (t !== undefined && t.kind !== 'text') return t;
  const run = scope.generic(e);
  const vec: { kind: 'any'; values: Value[] } = { kind: 'any', values: [] };
  return {
    kind: 'any',
    run: (b) => {
      vec.values = run(b);
      return vec;
    },
  };
}

/** Whether `e` runs over batches without the row evaluator per row. */
export function isTyped(e: BoundExpression, scope: VectorScope): boolean {
  const t = typed(e, scope);
  return t !== undefined && t.kind !== 'text';
}

/**
 * Whether `e` runs over batches only through a per-value table of its own (per-value.ts): its operators alone do
 * not type it (`CASE WHEN p.age < 40 THEN p.city ELSE 'older' END`, whose results mix a column and a literal).
 */
export function typedPerValueOnly(e: BoundExpression, scope: VectorScope): boolean {
  return typedByOperator(e, scope) === undefined && perValue(e, scope) !== undefined;
}

/** The value at row `i` of a vector that `c` produced, boxed as the row evaluator would give it. */
export function boxed(c: Compiled, v: Vec, i: number): Value {
  switch (v.kind) {
    case 'num':
      if (v.nulls[i] === 1) return null;
      return c.kind === 'num' && c.integer ? BigInt(v.values[i] as number) : (v.values[i] as number);
    case 'bool': {
      const x = v.values[i] as number;
      return x === NULL_BOOL ? null : x === 1;
    }
    case 'code': {
      const code = v.codes[i] as number;
      return code < 0 ? null : ((c as Extract<Compiled, { kind: 'code' }>).dictionary[code] as string);
    }
    case 'any':
      return v.values[i] as Value;
  }
}

function numBuffers(): { values: Float64Array; nulls: Uint8Array } {
  return { values: new Float64Array(BATCH_ROWS), nulls: new Uint8Array(BATCH_ROWS) };
}

function constant(value: Value): Compiled | undefined {
  if (typeof value === 'bigint') {
    if (value > BigInt(EXACT_INTEGER_MAX) || value < -BigInt(EXACT_INTEGER_MAX)) return undefined;
    const vec: NumVec = { kind: 'num', ...numBuffers() };
    vec.values.fill(Number(value));
    const m = Math.abs(Number(value));
    return { kind: 'num', integer: true, max_abs: m, min_abs: m, no_nulls: true, run: () => vec };
  }
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return undefined;
    const vec: NumVec = { kind: 'num', ...numBuffers() };
    vec.values.fill(value);
    return { kind: 'num', integer: false, max_abs: Math.abs(value), min_abs: Math.abs(value), no_nulls: true, run: () => vec };
  }
  if (typeof value === 'boolean') {
    const vec: BoolVec = { kind: 'bool', values: new Uint8Array(BATCH_ROWS).fill(value ? 1 : 0) };
    return { kind: 'bool', run: () => vec };
  }
  if (typeof value === 'string') return { kind: 'text', value };
  return undefined;
}

function property(e: Extract<BoundExpression, { kind: 'property' }>, scope: VectorScope): Compiled | undefined {
  if (e.object.kind !== 'variable') return undefined;
  const at = scope.position(e.object.variable.id);
  if (at === undefined) return undefined;
  const column = scope.columnOf(e.object.variable.id, e.key);
  if (column === undefined) return undefined;
  const c = at.column;
  const nullable = at.nullable;
  switch (column.kind) {
    case 'int':
    case 'float': {
      const vec: NumVec = { kind: 'num', ...numBuffers() };
      const { values, nulls } = column;
      // A column where every node has a value gathers no nulls: its vector's stay 0.
      const no_nulls = column.no_nulls && !nullable;
      const run = no_nulls
        ? (b: Batch): NumVec => {
            const ids = b.columns[c] as Int32Array;
            const out = vec.values;
            for (let i = 0, n = b.length; i < n; i++) out[i] = values[ids[i] as number] as number;
            return vec;
          }
        : (b: Batch): NumVec => {
        const ids = b.columns[c] as Int32Array;
        const out = vec.values;
        const outNulls = vec.nulls;
        if (nullable) {
          for (let i = 0, n = b.length; i < n; i++) {
            const id = ids[i] as number;
            out[i] = id === NULL_ID ? 0 : (values[id] as number);
            outNulls[i] = id === NULL_ID ? 1 : (nulls[id] as number);
          }
          return vec;
        }
        for (let i = 0, n = b.length; i < n; i++) {
          const id = ids[i] as number;
          out[i] = values[id] as number;
          outNulls[i] = nulls[id] as number;
        }
        return vec;
      };
      return { kind: 'num', integer: column.kind === 'int', max_abs: column.max_abs, min_abs: column.min_abs, ...(no_nulls && { no_nulls }), run };
    }
    case 'string': {
      const vec: CodeVec = { kind: 'code', codes: new Int32Array(BATCH_ROWS) };
      const codes = column.codes;
      return {
        kind: 'code',
        dictionary: column.dictionary,
        index: column.index,
        run: (b) => {
          const ids = b.columns[c] as Int32Array;
          const out = vec.codes;
          if (nullable) for (let i = 0, n = b.length; i < n; i++) out[i] = ids[i] === NULL_ID ? -1 : (codes[ids[i] as number] as number);
          else for (let i = 0, n = b.length; i < n; i++) out[i] = codes[ids[i] as number] as number;
          return vec;
        },
      };
    }
    case 'any': {
      const vec: AnyVec = { kind: 'any', values: valueBuffer() };
      const values = column.values;
      return {
        kind: 'any',
        run: (b) => {
          const ids = b.columns[c] as Int32Array;
          const out = vec.values;
          // NULL_ID reads index -1, which no array holds: null.
          for (let i = 0, n = b.length; i < n; i++) out[i] = values[ids[i] as number] ?? null;
          return vec;
        },
      };
    }
  }
}

/** `e` typed by its operators, or else evaluated once per value of the one column it reads (per-value.ts). */
function typed(e: BoundExpression, scope: VectorScope): Compiled | undefined {
  return typedByOperator(e, scope) ?? perValue(e, scope);
}

function typedByOperator(e: BoundExpression, scope: VectorScope): Compiled | undefined {
  switch (e.kind) {
    case 'literal':
      return constant(e.value as Value);
    case 'parameter':
      return scope.params.has(e.name) ? constant(scope.params.get(e.name) as Value) : undefined;
    case 'property':
      return property(e, scope);
    case 'is_null': {
      const o = typed(e.operand, scope);
      return o === undefined || o.kind === 'text' ? undefined : isNull(o, e.negated);
    }
    case 'unary': {
      const o = typed(e.operand, scope);
      if (e.op === 'not' && o?.kind === 'bool') return not(o);
      if (e.op === 'neg' && o?.kind === 'num') return negate(o);
      return undefined;
    }
    case 'binary': {
      const l = typed(e.left, scope);
      const r = typed(e.right, scope);
      if (l === undefined || r === undefined) return undefined;
      switch (e.op) {
        case 'and':
        case 'or':
        case 'xor':
          return l.kind === 'bool' && r.kind === 'bool' ? logic(e.op, l, r) : undefined;
        case 'eq':
        case 'neq':
          if (l.kind === 'num' && r.kind === 'num') return compareNumbers(e.op, l, r);
          return compareCodes(e.op, l, r);
        case 'lt':
        case 'gt':
        case 'lte':
        case 'gte':
          return l.kind === 'num' && r.kind === 'num' ? compareNumbers(e.op, l, r) : undefined;
        case 'add':
        case 'sub':
        case 'mul':
          return l.kind === 'num' && r.kind === 'num' ? arithmetic(e.op, l, r) : undefined;
        case 'div':
          return l.kind === 'num' && r.kind === 'num' ? divide(l, r) : undefined;
        case 'mod':
          return l.kind === 'num' && r.kind === 'num' ? modulo(l, r) : undefined;
        default:
          return undefined;
      }
    }
    case 'case':
      return caseOf(e, scope);
    case 'function': {
      if (!NUMBER_FUNCTIONS.has(e.name)) return undefined;
      const args: Compiled[] = [];
      for (const a of e.args) {
        const c = typed(a, scope);
        if (c === undefined) return undefined;
        args.push(c);
      }
      return callNumbers(e.name, args);
    }
    default:
      return undefined;
  }
}

type NumCompiled = Extract<Compiled, { kind: 'num' }>;
type BoolCompiled = Extract<Compiled, { kind: 'bool' }>;

function isNull(o: Exclude<Compiled, { kind: 'text' }>, negated: boolean): BoolCompiled {
  const vec: BoolVec = { kind: 'bool', values: new Uint8Array(BATCH_ROWS) };
  const yes = negated ? 0 : 1;
  const no = 1 - yes;
  return {
    kind: 'bool',
    run: (b) => {
      const v = o.run(b);
      const out = vec.values;
      const n = b.length;
      switch (v.kind) {
        case 'num':
          for (let i = 0; i < n; i++) out[i] = v.nulls[i] === 1 ? yes : no;
          break;
        case 'bool':
          for (let i = 0; i < n; i++) out[i] = v.values[i] === NULL_BOOL ? yes : no;
          break;
        case 'code':
          for (let i = 0; i < n; i++) out[i] = (v.codes[i] as number) < 0 ? yes : no;
          break;
        case 'any':
          for (let i = 0; i < n; i++) out[i] = v.values[i] === null ? yes : no;
          break;
      }
      return vec;
    },
  };
}

function not(o: BoolCompiled): BoolCompiled {
  const vec: BoolVec = { kind: 'bool', values: new Uint8Array(BATCH_ROWS) };
  return {
    kind: 'bool',
    run: (b) => {
      const x = o.run(b).values;
      const out = vec.values;
      for (let i = 0, n = b.length; i < n; i++) {
        const v = x[i] as number;
        out[i] = v === NULL_BOOL ? NULL_BOOL : 1 - v;
      }
      return vec;
    },
  };
}

function negate(o: NumCompiled): NumCompiled {
  const vec: NumVec = { kind: 'num', ...numBuffers() };
  // An INTEGER has no -0: 0 - x gives +0 where -x would give -0 (seen once the value turns FLOAT).
  const zero = o.integer ? 0 : -0;
  return {
    ...o,
    run: (b) => {
      const x = o.run(b);
      for (let i = 0, n = b.length; i < n; i++) {
        vec.values[i] = zero - (x.values[i] as number);
        vec.nulls[i] = x.nulls[i] as number;
      }
      return vec;
    },
  };
}

/** Three-valued logic on 0 / 1 / NULL_BOOL. */
function logic(op: 'and' | 'or' | 'xor', l: BoolCompiled, r: BoolCompiled): BoolCompiled {
  const vec: BoolVec = { kind: 'bool', values: new Uint8Array(BATCH_ROWS) };
  return {
    kind: 'bool',
    run: (b) => {
      const x = l.run(b).values;
      const y = r.run(b).values;
      const out = vec.values;
      const n = b.length;
      if (op === 'and') {
        for (let i = 0; i < n; i++) {
          const a = x[i] as number;
          const c = y[i] as number;
          out[i] = a === 0 || c === 0 ? 0 : a === NULL_BOOL || c === NULL_BOOL ? NULL_BOOL : 1;
        }
      } else if (op === 'or') {
        for (let i = 0; i < n; i++) {
          const a = x[i] as number;
          const c = y[i] as number;
          out[i] = a === 1 || c === 1 ? 1 : a === NULL_BOOL || c === NULL_BOOL ? NULL_BOOL : 0;
        }
      } else {
        for (let i = 0; i < n; i++) {
          const a = x[i] as number;
          const c = y[i] as number;
          out[i] = a === NULL_BOOL || c === NULL_BOOL ? NULL_BOOL : a ^ c;
        }
      }
      return vec;
    },
  };
}

type Comparison = 'eq' | 'neq' | 'lt' | 'gt' | 'lte' | 'gte';

/**
 * Numbers compare by value across INTEGER and FLOAT (1 = 1.0), as Cypher's comparison does; NaN never
 * reaches here. One loop per operator, so the loop body holds no test of which operator it is.
 */
function compareNumbers(op: Comparison, l: NumCompiled, r: NumCompiled): BoolCompiled {
  const vec: BoolVec = { kind: 'bool', values: new Uint8Array(BATCH_ROWS) };
  const loop = COMPARE_LOOPS[op];
  const never_null = l.no_nulls === true && r.no_nulls === true;
  return {
    kind: 'bool',
    run: (b) => {
      const x = l.run(b);
      const y = r.run(b);
      loop(x.values, y.values, vec.values, b.length);
      if (never_null) return vec;
      // Nulls last: a comparison with null is null.
      const xn = x.nulls;
      const yn = y.nulls;
      const out = vec.values;
      for (let i = 0, n = b.length; i < n; i++) if ((xn[i]! | yn[i]!) === 1) out[i] = NULL_BOOL;
      return vec;
    },
  };
}

type CompareLoop = (x: Float64Array, y: Float64Array, out: Uint8Array, n: number) => void;

const COMPARE_LOOPS: Readonly<Record<Comparison, CompareLoop>> = {
  eq: (x, y, out, n) => {
    for (let i = 0; i < n; i++) out[i] = x[i] === y[i] ? 1 : 0;
  },
  neq: (x, y, out, n) => {
    for (let i = 0; i < n; i++) out[i] = x[i] !== y[i] ? 1 : 0;
  },
  lt: (x, y, out, n) => {
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) < (y[i] as number) ? 1 : 0;
  },
  gt: (x, y, out, n) => {
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) > (y[i] as number) ? 1 : 0;
  },
  lte: (x, y, out, n) => {
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) <= (y[i] as number) ? 1 : 0;
  },
  gte: (x, y, out, n) => {
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) >= (y[i] as number) ? 1 : 0;
  },
};

/**
 * Strings for (in)equality: two code vectors (over different dictionaries, the left's codes are
 * mapped into the right's once per run), or a code vector and a string constant. Undefined for
 * anything else.
 */
function compareCodes(op: 'eq' | 'neq', l: Compiled, r: Compiled): BoolCompiled | undefined {
  const vec: BoolVec = { kind: 'bool', values: new Uint8Array(BATCH_ROWS) };
  const yes = op === 'eq' ? 1 : 0;
  const no = 1 - yes;
  if (l.kind === 'text' && r.kind === 'code') return compareCodes(op, r, l);
  if (l.kind !== 'code') return undefined;
  if (r.kind === 'text') {
    // A string the dictionary lacks equals no value: code -2 matches no row's code (nulls are -1).
    const wanted = l.index.get(r.value) ?? -2;
    return {
      kind: 'bool',
      run: (b) => {
        const x = l.run(b).codes;
        const out = vec.values;
        for (let i = 0, n = b.length; i < n; i++) {
          const c = x[i] as number;
          out[i] = c < 0 ? NULL_BOOL : c === wanted ? yes : no;
        }
        return vec;
      },
    };
  }
  if (r.kind !== 'code') return undefined;
  const remap = l.dictionary === r.dictionary ? undefined : Int32Array.from(l.dictionary, (s) => r.index.get(s) ?? -2);
  return {
    kind: 'bool',
    run: (b) => {
      const x = l.run(b).codes;
      const y = r.run(b).codes;
      const out = vec.values;
      for (let i = 0, n = b.length; i < n; i++) {
        const a = x[i] as number;
        const c = y[i] as number;
        if (a < 0 || c < 0) out[i] = NULL_BOOL;
        else out[i] = (remap === undefined ? a : (remap[a] as number)) === c ? yes : no;
      }
      return vec;
    },
  };
}

/**
 * + - * where the result is certain to be exact: FLOAT when either side is, INTEGER within bounds. A FLOAT
 * result is typed only when it cannot be NaN (Infinity - Infinity, 0 * Infinity), which a number vector never
 * holds.
 */
function arithmetic(op: 'add' | 'sub' | 'mul', l: NumCompiled, r: NumCompiled): NumCompiled | undefined {
  const integer = l.integer && r.integer;
  const max_abs = op === 'mul' ? l.max_abs * r.max_abs : l.max_abs + r.max_abs;
  // Beyond 2^53 an INTEGER result could lose exactness or overflow 64 bits: the row evaluator decides.
  if (integer && !(max_abs <= EXACT_INTEGER_MAX)) return undefined;
  if (!integer && mayBeNaN(op, l, r)) return undefined;
  const min_abs = op === 'mul' ? l.min_abs * r.min_abs : 0;
  // (-3) * 0 is -0 in doubles; an INTEGER product is +0.
  return numBinary(l, r, integer, max_abs, min_abs, integer && op === 'mul' ? multiplyIntegers : ARITHMETIC_LOOPS[op]);
}

/** Whether + - * of two FLOAT operands with these bounds may give NaN. */
function mayBeNaN(op: 'add' | 'sub' | 'mul', l: NumCompiled, r: NumCompiled): boolean {
  if (op !== 'mul') return l.max_abs === Infinity && r.max_abs === Infinity;
  return (l.max_abs === Infinity && r.min_abs === 0) || (r.max_abs === Infinity && l.min_abs === 0);
}

type ArithmeticLoop = (x: Float64Array, y: Float64Array, out: Float64Array, n: number) => void;

const ARITHMETIC_LOOPS: Readonly<Record<'add' | 'sub' | 'mul', ArithmeticLoop>> = {
  add: (x, y, out, n) => {
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) + (y[i] as number);
  },
  sub: (x, y, out, n) => {
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) - (y[i] as number);
  },
  mul: (x, y, out, n) => {
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) * (y[i] as number);
  },
};

const multiplyIntegers: ArithmeticLoop = (x, y, out, n) => {
  for (let i = 0; i < n; i++) out[i] = (x[i] as number) * (y[i] as number) + 0;
};

/**
 * CASE over a batch: each WHEN is a typed condition (a simple CASE's `subject = value` included, which a null
 * never passes, as the row evaluator's equality gives), and the results are all INTEGERs or all FLOATs (a number vector) or
 * all string literals (codes into a dictionary of those strings, so a CASE grouping key groups by code). A
 * missing ELSE, or ELSE null, gives null. Every condition and result runs over the whole batch: typed
 * expressions cannot fail, so evaluating a branch a row does not take changes nothing.
 */
function caseOf(e: Extract<BoundExpression, { kind: 'case' }>, scope: VectorScope): Compiled | undefined {
  const subject = e.subject === undefined ? undefined : typed(e.subject, scope);
  if (e.subject !== undefined && subject === undefined) return undefined;
  const whens: BoolCompiled[] = [];
  for (const alt of e.alternatives) {
    const w = typed(alt.when, scope);
    if (w === undefined) return undefined;
    const test = subject === undefined ? w : subject.kind === 'num' && w.kind === 'num' ? compareNumbers('eq', subject, w) : compareCodes('eq', subject, w);
    if (test?.kind !== 'bool') return undefined;
    whens.push(test);
  }
  const isNullLiteral = (x: BoundExpression | undefined): boolean => x === undefined || (x.kind === 'literal' && x.value === null);
  const results = e.alternatives.map((a) => typed(a.then, scope));
  const otherwise = isNullLiteral(e.otherwise) ? undefined : typed(e.otherwise as BoundExpression, scope);
  if (!isNullLiteral(e.otherwise) && otherwise === undefined) return undefined;
  const all = otherwise === undefined ? results : [...results, otherwise];
  // Numbers of one type only: a vector holds INTEGERs or FLOATs, not a mix of the two.
  const nums = all.filter((r): r is NumCompiled => r?.kind === 'num');
  if (nums.length === all.length && (nums.every((r) => r.integer) || nums.every((r) => !r.integer))) {
    return caseNumbers(whens, results as NumCompiled[], otherwise as NumCompiled | undefined);
  }
  if (all.every((r) => r?.kind === 'text')) return caseTexts(whens, results as TextCompiled[], otherwise as TextCompiled | undefined);
  return undefined;
}

type TextCompiled = Extract<Compiled, { kind: 'text' }>;

/** For each row, the index of the first WHEN that holds, or `whens.length` when none does. */
function chooseBranches(whens: readonly BoolCompiled[], b: Batch, chosen: Int32Array): void {
  const n = b.length;
  const none = whens.length;
  chosen.fill(none, 0, n);
  for (let w = none - 1; w >= 0; w--) {
    const x = (whens[w] as BoolCompiled).run(b).values;
    for (let i = 0; i < n; i++) if (x[i] === 1) chosen[i] = w;
  }
}

function caseNumbers(whens: readonly BoolCompiled[], results: readonly NumCompiled[], otherwise: NumCompiled | undefined): NumCompiled {
  const vec: NumVec = { kind: 'num', ...numBuffers() };
  const chosen = new Int32Array(BATCH_ROWS);
  const branches = otherwise === undefined ? results : [...results, otherwise];
  const integer = branches.every((r) => r.integer);
  const max_abs = Math.max(0, ...branches.map((r) => r.max_abs));
  // A row that no branch takes gets null, not a number: only the branches bound the magnitudes.
  const min_abs = Math.min(...branches.map((r) => r.min_abs));
  return {
    kind: 'num',
    integer,
    max_abs,
    min_abs,
    run: (b) => {
      chooseBranches(whens, b, chosen);
      const vecs = branches.map((r) => r.run(b));
      const n = b.length;
      for (let i = 0; i < n; i++) {
        const v = vecs[chosen[i] as number];
        if (v === undefined) {
          vec.values[i] = 0;
          vec.nulls[i] = 1;
        } else {
          vec.values[i] = v.values[i] as number;
          vec.nulls[i] = v.nulls[i] as number;
        }
      }
      return vec;
    },
  };
}

function caseTexts(whens: readonly BoolCompiled[], results: readonly TextCompiled[], otherwise: TextCompiled | undefined): Compiled {
  const dictionary: string[] = [];
  const index = new Map<string, number>();
  const codeOf = (t: TextCompiled): number => {
    let c = index.get(t.value);
    if (c === undefined) {
      c = dictionary.length;
      dictionary.push(t.value);
      index.set(t.value, c);
    }
    return c;
  };
  // The code of each branch by its position; the row with no branch gets ELSE's, or -1 (null).
  const codes = Int32Array.from(results, codeOf);
  const fallback = otherwise === undefined ? -1 : codeOf(otherwise);
  const branchCodes = Int32Array.from([...codes, fallback]);
  const vec: CodeVec = { kind: 'code', codes: new Int32Array(BATCH_ROWS) };
  const chosen = new Int32Array(BATCH_ROWS);
  return {
    kind: 'code',
    dictionary,
    index,
    run: (b) => {
      chooseBranches(whens, b, chosen);
      const out = vec.codes;
      for (let i = 0, n = b.length; i < n; i++) out[i] = branchCodes[chosen[i] as number] as number;
      return vec;
    },
  };
}
