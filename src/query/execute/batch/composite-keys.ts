import type { Value } from '../../../common/values/value.js';
import { BATCH_ROWS, NULL_BOOL, type Vec } from './batch.js';
import type { Vectorized } from './vector-expressions.js';

/**
 * Several grouping keys that are all typed and bounded (dictionary codes, booleans, exact integers of a
 * known magnitude) found as one number: each key's value becomes a digit (0 for null) in a mixed radix,
 * so a row's group is one lookup of a double instead of a list of boxed values hashed by value. Two
 * rows get the same number exactly when every key is equivalent (codes stand one to one for strings
 * within a dictionary; exact integers for themselves), which is how the row operator groups them.
 */

/** Groups the number of each starts with room for (it doubles as needed). */
const initial_groups = 1024;

/** Mixed-radix numbers beyond this are not exact in a double. */
const COMPOSITE_MAX = Number.MAX_SAFE_INTEGER;

/** How many digits a key's values take (null included), or undefined when they are not bounded. */
function radixOf(k: Vectorized): number | undefined {
  switch (k.kind) {
    case 'code':
      return k.dictionary.length + 1;
    case 'bool':
      return 3;
    case 'num':
      return k.integer && k.max_abs <= COMPOSITE_MAX / 4 ? 2 * k.max_abs + 2 : undefined;
    case 'any':
      return undefined;
  }
}

/** Adds key `v`'s digit to each of the first `n` partial numbers. */
function addDigits(k: Vectorized, v: Vec, radix: number, n: number, out: Float64Array): void {
  switch (v.kind) {
    case 'code':
      for (let i = 0; i < n; i++) out[i] = (out[i] as number) * radix + (v.codes[i] as number) + 1;
      return;
    case 'bool':
      for (let i = 0; i < n; i++) {
        const x = v.values[i] as number;
        out[i] = (out[i] as number) * radix + (x === NULL_BOOL ? 0 : x + 1);
      }
      return;
    case 'num': {
      const offset = k.kind === 'num' ? k.max_abs + 1 : 0;
      for (let i = 0; i < n; i++) out[i] = (out[i] as number) * radix + (v.nulls[i] === 1 ? 0 : (v.values[i] as number) + offset);
      return;
    }
    case 'any':
      return;
  }
}

/** Whether several keys group as one number (each typed and bounded, the product of their radices exact in a double). */
export function composable(keys: readonly Vectorized[]): boolean {
  return keys.length >= 2 && radicesOf(keys) !== undefined;
}

/** Each key's radix, or undefined when some key is unbounded or their product does not fit a double exactly. */
function radicesOf(keys: readonly Vectorized[]): number[] | undefined {
  const radices: number[] = [];
  let product = 1;
  for (const k of keys) {
    const r = radixOf(k);
    if (r === undefined) return undefined;
    product *= r;
    if (!(product <= COMPOSITE_MAX)) return undefined;
    radices.push(r);
  }
  return radices;
}

/** Key `k`'s value for its digit (0 for null), as `boxed` gives it. */
function valueOfDigit(k: Vectorized, digit: number): Value {
  if (digit === 0) return null;
  switch (k.kind) {
    case 'code':
      return k.dictionary[digit - 1] as string;
    case 'bool':
      return digit === 2;
    case 'num':
      // Only exact integers take a radix (radixOf).
      return BigInt(digit - k.max_abs - 1);
    case 'any':
      return null;
  }
}

/**
 * A grouper over several typed keys, or undefined when some key is unbounded or the radix product does not
 * fit a double exactly. A group holds no object while rows are grouped: `newGroup` is given null, its number
 * is kept in a typed array, and `keyOf` makes the group's keys (a list of boxed values, as the row operator's)
 * when the group is emitted.
 */
export function compositeGrouper(
  keys: readonly Vectorized[],
  newGroup: (key: Value) => number,
): { assign(vecs: readonly Vec[], n: number, out: Int32Array): void; keyOf(g: number): Value } | undefined {
  if (keys.length < 2) return undefined;
  const radices = radicesOf(keys);
  if (radices === undefined) return undefined;
  const numbers = new Float64Array(BATCH_ROWS);
  const groups = new Map<number, number>();
  /** Group g's number at [g]. Invariant: every group newGroup made has its number here. */
  let numberOf = new Float64Array(initial_groups);
  return {
    keyOf: (g) => {
      let x = numberOf[g] as number;
      const out: Value[] = new Array<Value>(keys.length);
      for (let j = keys.length - 1; j >= 0; j--) {
        const radix = radices[j] as number;
        const digit = x % radix;
        out[j] = valueOfDigit(keys[j] as Vectorized, digit);
        x = (x - digit) / radix;
      }
      return out;
    },
    assign: (vecs, n, out) => {
      numbers.fill(0, 0, n);
      for (let j = 0; j < keys.length; j++) addDigits(keys[j] as Vectorized, vecs[j] as Vec, radices[j] as number, n, numbers);
      let last = Number.NaN;
      let lastGroup = -1;
      for (let i = 0; i < n; i++) {
        const x = numbers[i] as number;
        // Rows expanded from one node often share their keys: reuse the previous row's group.
        if (x !== last) {
          let g = groups.get(x);
          if (g === undefined) {
            g = newGroup(null);
            if (g >= numberOf.length) {
              const grown = new Float64Array(2 * numberOf.length);
              grown.set(numberOf);
              numberOf = grown;
            }
            numberOf[g] = x;
            groups.set(x, g);
          }
          last = x;
          lastGroup = g;
        }
        out[i] = lastGroup;
      }
    },
  };
}
