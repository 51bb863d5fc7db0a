import { BATCH_ROWS, NULL_BOOL, type Vec } from './batch.js';
import { EXACT_INTEGER_MAX } from './typed-columns.js';
import type { Compiled } from './vector-expressions.js';

/**
 * Number kernels over batches beyond + - *: `/` and `%`, toInteger, toFloat, abs, sign, floor, ceil, round
 * and coalesce. Each takes operands already compiled to number (or boolean) vectors and gives one, with the
 * row evaluator's answers: the same IEEE operation on the same doubles (an INTEGER below 2^53 is its own
 * double), integer division truncating toward zero and the remainder taking the dividend's sign, an
 * INTEGER never -0, null in, null out.
 *
 * A kernel is taken only where it cannot fail and cannot give NaN, which is what lets CASE, AND/OR and folded
 * end filters run a typed expression over rows the row path would not reach: a divisor must be known non-zero
 * (a constant, or a column of which no value is 0: `min_abs` > 0), since an INTEGER divided by zero raises and a
 * FLOAT gives NaN; a FLOAT operand that may be infinite is refused where Infinity would give NaN (Infinity %
 * x, Infinity / Infinity); toInteger of a FLOAT only below 2^53 (beyond, the row evaluator checks 64 bits).
 * Anything refused here is left to the per-value tables or the row evaluator (vector-expressions.ts).
 */
/** Kernels compiled since the process started (tests check that their expressions took one). */
export const numberKernels = { compiled: 0 };

type NumCompiled = Extract<Compiled, { kind: 'num' }>;
type BoolCompiled = Extract<Compiled, { kind: 'bool' }>;
type NumVec = Extract<Vec, { kind: 'num' }>;
type BoolVec = Extract<Vec, { kind: 'bool' }>;
export type NumLoop = (x: Float64Array, y: Float64Array, out: Float64Array, n: number) => void;
type UnaryLoop = (x: Float64Array, out: Float64Array, n: number) => void;

function numVec(): NumVec {
  return { kind: 'num', values: new Float64Array(BATCH_ROWS), nulls: new Uint8Array(BATCH_ROWS) };
}

/** A binary kernel of this file: counted, then as numBinary. */
function binary(l: NumCompiled, r: NumCompiled, integer: boolean, max_abs: number, min_abs: number, loop: NumLoop): NumCompiled {
  numberKernels.compiled++;
  return numBinary(l, r, integer, max_abs, min_abs, loop);
}

/** `loop` over two number vectors into one of its own, null where either side is (also + - * of vector-expressions.ts). */
export function numBinary(l: NumCompiled, r: NumCompiled, integer: boolean, max_abs: number, min_abs: number, loop: NumLoop): NumCompiled {
  const vec = numVec();
  const no_nulls = l.no_nulls === true && r.no_nulls === true;
  return {
    kind: 'num',
    integer,
    max_abs,
    min_abs,
    ...(no_nulls && { no_nulls }),
    run: (b) => {
      const x = l.run(b);
      const y = r.run(b);
      const n = b.length;
      loop(x.values, y.values, vec.values, n);
      if (no_nulls) return vec;
      const nulls = vec.nulls;
      const xn = x.nulls;
      const yn = y.nulls;
      for (let i = 0; i < n; i++) nulls[i] = xn[i]! | yn[i]!;
      return vec;
    },
  };
}

/** A unary kernel: `loop` over the values, nulls as they were. */
function unary(o: NumCompiled, integer: boolean, max_abs: number, min_abs: number, loop: UnaryLoop): NumCompiled {
  numberKernels.compiled++;
  const vec = numVec();
  const no_nulls = o.no_nulls === true;
  return {
    kind: 'num',
    integer,
    max_abs,
    min_abs,
    ...(no_nulls && { no_nulls }),
    run: (b) => {
      const x = o.run(b);
      const n = b.length;
      loop(x.values, vec.values, n);
      if (!no_nulls) vec.nulls.set(x.nulls.subarray(0, n));
      return vec;
    },
  };
}

/**
 * `/`: two INTEGERs divide truncating toward zero. `x - x % y` is exact (a multiple of y no larger than x) and
 * so is its quotient by y, where `Math.trunc(x / y)` could round a quotient just below an integer up to it.
 */
export function divide(l: NumCompiled, r: NumCompiled): NumCompiled | undefined {
  if (r.min_abs === 0) return undefined;
  if (l.integer && r.integer) {
    const loop = l.max_abs <= INT32_MAX && r.max_abs <= INT32_MAX ? divideInt32 : divideIntegers;
    return binary(l, r, true, Math.floor(l.max_abs / r.min_abs), r.max_abs === Infinity ? 0 : Math.floor(l.min_abs / r.max_abs), loop);
  }
  if (l.max_abs === Infinity && r.max_abs === Infinity) return undefined;
  return binary(l, r, false, l.max_abs / r.min_abs, l.min_abs / r.max_abs, divideFloats);
}

const divideIntegers: NumLoop = (x, y, out, n) => {
  for (let i = 0; i < n; i++) {
    const a = x[i] as number;
    const d = y[i] as number;
    out[i] = (a - (a % d)) / d + 0;
  }
};

/**
 * Below 2^31 both operands are int32s, whose quotient truncates exactly with `| 0` (no -0, and no overflow: the
 * magnitude of a quotient is at most the dividend's), and V8 divides int32s without a double division.
 */
const divideInt32: NumLoop = (x, y, out, n) => {
  for (let i = 0; i < n; i++) out[i] = ((x[i] as number) | 0) / ((y[i] as number) | 0) | 0;
};

/** int32 operands are exact below this magnitude (2^31 - 1), which also keeps -2^31 / -1 out. */
const INT32_MAX = 2_147_483_647;

const divideFloats: NumLoop = (x, y, out, n) => {
  for (let i = 0; i < n; i++) out[i] = (x[i] as number) / (y[i] as number);
};

/** `%`: the remainder of truncating division, of the dividend's sign (JavaScript's `%` on doubles is exact). */
export function modulo(l: NumCompiled, r: NumCompiled): NumCompiled | undefined {
  if (r.min_abs === 0) return undefined;
  if (l.integer && r.integer) return binary(l, r, true, Math.min(l.max_abs, r.max_abs - 1), 0, l.max_abs <= INT32_MAX && r.max_abs <= INT32_MAX ? moduloInt32 : moduloIntegers);
  if (l.max_abs === Infinity) return undefined;
  return binary(l, r, false, Math.min(l.max_abs, r.max_abs), 0, moduloFloats);
}

const moduloIntegers: NumLoop = (x, y, out, n) => {
  for (let i = 0; i < n; i++) out[i] = ((x[i] as number) % (y[i] as number)) + 0;
};

/** As moduloIntegers, over int32s: an integer remainder where a double one is a call to fmod. */
const moduloInt32: NumLoop = (x, y, out, n) => {
  for (let i = 0; i < n; i++) out[i] = (((x[i] as number) | 0) % ((y[i] as number) | 0)) + 0;
};

const moduloFloats: NumLoop = (x, y, out, n) => {
  for (let i = 0; i < n; i++) out[i] = (x[i] as number) % (y[i] as number);
};

const same: UnaryLoop = (x, out, n) => out.set(x.subarray(0, n));

// One loop per function, each its own function literal: a loop calling a function argument per value would
// share one call site among all of them, which V8 cannot inline once it has seen two.
const truncate: UnaryLoop = (x, out, n) => {
  for (let i = 0; i < n; i++) out[i] = Math.trunc(x[i] as number) + 0;
};
const absolute: UnaryLoop = (x, out, n) => {
  for (let i = 0; i < n; i++) out[i] = Math.abs(x[i] as number);
};
const signOf: UnaryLoop = (x, out, n) => {
  for (let i = 0; i < n; i++) out[i] = Math.sign(x[i] as number) + 0;
};
const FLOAT_FUNCTIONS: Readonly<Record<string, UnaryLoop>> = {
  floor: (x, out, n) => {
    for (let i = 0; i < n; i++) out[i] = Math.floor(x[i] as number);
  },
  ceil: (x, out, n) => {
    for (let i = 0; i < n; i++) out[i] = Math.ceil(x[i] as number);
  },
  // As the row evaluator's round(): ties towards positive infinity, and never -0.0 (round(-0.4) is 0.0).
  round: (x, out, n) => {
    for (let i = 0; i < n; i++) out[i] = Math.round(x[i] as number) + 0;
  },
};

/** The functions `callNumbers` may cover (catalog names). */
export const NUMBER_FUNCTIONS: ReadonlySet<string> = new Set(['tointeger', 'tointegerornull', 'tofloat', 'tofloatornull', 'abs', 'sign', 'floor', 'ceil', 'round', 'coalesce']);

/**
 * A call of a function this file covers, over compiled arguments, or undefined. `name` is the catalog's
 * lower-case name. The row functions: toInteger truncates a FLOAT, toFloat converts, abs and sign keep an
 * INTEGER an INTEGER, floor, ceil and round (one argument) give a FLOAT, coalesce the first non-null.
 */
export function callNumbers(name: string, args: readonly Compiled[]): Compiled | undefined {
  if (name === 'coalesce') return coalesce(args);
  const o = args[0];
  if (args.length !== 1 || o?.kind !== 'num') return undefined;
  switch (name) {
    case 'tointeger':
    case 'tointegerornull':
      if (o.integer) return o;
      return o.max_abs <= EXACT_INTEGER_MAX ? unary(o, true, Math.floor(o.max_abs), Math.floor(o.min_abs), truncate) : undefined;
    case 'tofloat':
    case 'tofloatornull':
      return o.integer ? unary(o, false, o.max_abs, o.min_abs, same) : o;
    case 'abs':
      return unary(o, o.integer, o.max_abs, o.min_abs, absolute);
    case 'sign':
      return unary(o, true, o.max_abs === 0 ? 0 : 1, o.min_abs > 0 ? 1 : 0, signOf);
    case 'floor':
    case 'ceil':
    case 'round': {
      const loop = FLOAT_FUNCTIONS[name] as UnaryLoop;
      // Rounding moves a value by less than 1, and may take it to 0.
      return unary(o, false, o.max_abs + 1, 0, loop);
    }
    default:
      return undefined;
  }
}

/** coalesce of number vectors of one type (INTEGERs or FLOATs), or of boolean vectors: each row's first non-null. */
function coalesce(args: readonly Compiled[]): Compiled | undefined {
  if (args.length === 0) return undefined;
  if (args.every((a): a is BoolCompiled => a.kind === 'bool')) return coalesceBooleans(args);
  const nums = args.filter((a): a is NumCompiled => a.kind === 'num');
  if (nums.length !== args.length) return undefined;
  const integer = nums.every((a) => a.integer);
  if (!integer && nums.some((a) => a.integer)) return undefined;
  numberKernels.compiled++;
  const vec = numVec();
  return {
    kind: 'num',
    integer,
    max_abs: Math.max(...nums.map((a) => a.max_abs)),
    min_abs: Math.min(...nums.map((a) => a.min_abs)),
    run: (b) => {
      const n = b.length;
      const out = vec.values;
      const nulls = vec.nulls;
      nulls.fill(1, 0, n);
      // Later arguments first, each overwritten by an earlier one that holds a value.
      for (let k = nums.length - 1; k >= 0; k--) {
        const x = (nums[k] as NumCompiled).run(b);
        for (let i = 0; i < n; i++) {
          if (x.nulls[i] === 1) continue;
          out[i] = x.values[i] as number;
          nulls[i] = 0;
        }
      }
      return vec;
    },
  };
}

function coalesceBooleans(args: readonly BoolCompiled[]): BoolCompiled {
  numberKernels.compiled++;
  const vec: BoolVec = { kind: 'bool', values: new Uint8Array(BATCH_ROWS) };
  return {
    kind: 'bool',
    run: (b) => {
      const n = b.length;
      const out = vec.values;
      out.fill(NULL_BOOL, 0, n);
      for (let k = args.length - 1; k >= 0; k--) {
        const x = (args[k] as BoolCompiled).run(b).values;
        for (let i = 0; i < n; i++) if (x[i] !== NULL_BOOL) out[i] = x[i] as number;
      }
      return vec;
    },
  };
}
