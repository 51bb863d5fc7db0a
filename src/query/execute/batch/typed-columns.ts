import type { Value } from '../../../common/values/value.js';
import { keepDerived } from '../../../projections/graph/scan-cache.js';

/**
 * A property column by node id (GraphStore.nodeColumn) in the form batched expressions read: exact
 * integers or floats as doubles with a null mask, strings as dictionary codes, anything else boxed.
 * The typed form is made once per column the store keeps and dropped with it (a WeakMap keyed by the
 * store's array), so it is a picture of the same point of the log as the column it came from; its bytes are
 * charged to the column's entry in the scan cache (projections/graph/scan-cache.ts).
 */
export type TypedColumn =
  | {
      readonly kind: 'int';
      /** Every value an INTEGER of magnitude at most `max_abs` (< 2^53), so the doubles are exact. */
      readonly values: Float64Array;
      /** 1 where the node has no value (absent or no node). */
      readonly nulls: Uint8Array;
      readonly max_abs: number;
      /** The smallest magnitude of a value (0 when some value is 0, or when there is none). */
      readonly min_abs: number;
      /** Every node has a value: `nulls` is all 0. */
      readonly no_nulls: boolean;
    }
  | {
      readonly kind: 'float';
      /** Every value a FLOAT other than NaN (NaN compares unlike any double, so such a column stays boxed). */
      readonly values: Float64Array;
      readonly nulls: Uint8Array;
      /** The largest magnitude of a value: Infinity when some value is infinite. */
      readonly max_abs: number;
      /** The smallest magnitude of a value (0 when some value is ±0.0, or when there is none). */
      readonly min_abs: number;
      /** Every node has a value: `nulls` is all 0. */
      readonly no_nulls: boolean;
    }
  | {
      readonly kind: 'string';
      /** Index into `dictionary`, or -1 where the node has no value. */
      readonly codes: Int32Array;
      readonly dictionary: readonly string[];
      readonly index: ReadonlyMap<string, number>;
    }
  | { readonly kind: 'any'; readonly values: readonly (Value | undefined)[] };

/** Integers up to this magnitude are held exactly by a double (2^53 - 1). */
export const EXACT_INTEGER_MAX = Number.MAX_SAFE_INTEGER;

const typed = new WeakMap<readonly (Value | undefined)[], TypedColumn>();

export function typedColumn(values: readonly (Value | undefined)[]): TypedColumn {
  let t = typed.get(values);
  if (t === undefined) {
    t = classify(values);
    if (keepDerived(values, t, typedColumnBytes(t), 'typed column')) typed.set(values, t);
  }
  return t;
}

/** Bytes a Map entry of a string dictionary's index costs beside the list's slot (the strings are the column's). */
const DICTIONARY_ENTRY_BYTES = 48;
/** Bytes an object of a few fields costs: a typed form's own record, a summary. */
export const SMALL_FORM_BYTES = 64;

/** What a typed form holds beyond the column it came from: its arrays, and a dictionary's list and index. */
export function typedColumnBytes(t: TypedColumn): number {
  switch (t.kind) {
    case 'int':
    case 'float':
      return t.values.byteLength + t.nulls.byteLength + SMALL_FORM_BYTES;
    case 'string':
      return t.codes.byteLength + (8 + DICTIONARY_ENTRY_BYTES) * t.dictionary.length + SMALL_FORM_BYTES;
    case 'any':
      // The boxed form is the column itself.
      return SMALL_FORM_BYTES;
  }
}

function classify(values: readonly (Value | undefined)[]): TypedColumn {
  let ints = 0;
  let floats = 0;
  let strings = 0;
  let other = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined || v === null) continue;
    if (typeof v === 'bigint') {
      if (v > BigInt(EXACT_INTEGER_MAX) || v < -BigInt(EXACT_INTEGER_MAX)) other++;
      else ints++;
    } else if (typeof v === 'number') {
      if (Number.isNaN(v)) other++;
      else floats++;
    } else if (typeof v === 'string') strings++;
    else other++;
  }
  const kinds = (ints > 0 ? 1 : 0) + (floats > 0 ? 1 : 0) + (strings > 0 ? 1 : 0) + (other > 0 ? 1 : 0);
  if (kinds > 1 || other > 0) return { kind: 'any', values };
  const n = values.length;
  if (strings > 0) {
    const codes = new Int32Array(n);
    const dictionary: string[] = [];
    const index = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (typeof v !== 'string') {
        codes[i] = -1;
        continue;
      }
      let c = index.get(v);
      if (c === undefined) {
        c = dictionary.length;
        dictionary.push(v);
        index.set(v, c);
      }
      codes[i] = c;
    }
    return { kind: 'string', codes, dictionary, index };
  }
  const doubles = new Float64Array(n);
  const nulls = new Uint8Array(n);
  let max_abs = 0;
  let min_abs = Infinity;
  let no_nulls = true;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === undefined || v === null) {
      nulls[i] = 1;
      no_nulls = false;
      continue;
    }
    const x = Number(v as bigint | number);
    doubles[i] = x;
    const m = Math.abs(x);
    if (m > max_abs) max_abs = m;
    if (m < min_abs) min_abs = m;
  }
  if (min_abs === Infinity) min_abs = 0;
  // A column with no value at all reads as INTEGER nulls: every read is null either way.
  return floats > 0 ? { kind: 'float', values: doubles, nulls, max_abs, min_abs, no_nulls } : { kind: 'int', values: doubles, nulls, max_abs, min_abs, no_nulls };
}
