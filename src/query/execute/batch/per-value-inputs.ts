import type { Value } from '../../../common/values/value.js';
import { keepDerived } from '../../../projections/graph/scan-cache.js';
import { NULL_ID, type Batch } from './batch.js';
import { columnDistinct } from './column-statistics.js';
import { SMALL_FORM_BYTES, type TypedColumn } from './typed-columns.js';

/**
 * A typed column as the input of a per-value table (per-value.ts): the values a row can hold, numbered, and a
 * loop that writes each row's number. Entry 0 is null (no value, or no entity); then
 *
 * - a dictionary-coded string column: one entry per dictionary entry (code + 1);
 * - exact integers of magnitude at most PER_VALUE_INT_MAGNITUDE_MAX: one entry per integer of that span;
 * - any other number column (floats, wider integers) whose distinct values are few against its rows (by the
 *   sampled estimate, columnDistinct): one entry per distinct value, through a dictionary made for it once
 *   per column (a pass over the column and a hash map). -0.0 and 0.0 get entries of their own (an answer
 *   may tell them apart: `1 / x`, toString). NaN and INTEGERs beyond 2^53 never reach here (a column
 *   holding one is not typed). A column of many distinct numbers is left per row: its dictionary would
 *   cost a hash map insert per row for answers that are rarely asked twice.
 */

/** Integers of a column no wider than this are numbered by value, without a dictionary. */
export const PER_VALUE_INT_MAGNITUDE_MAX = 4096;
/** A dictionary larger than this is not evaluated per value (each entry costs one row evaluation). */
export const PER_VALUE_DICTIONARY_MAX = 1 << 17;
/** A number column gets a dictionary when its estimated distinct values are at most this share of its values. */
export const PER_VALUE_DISTINCT_SHARE_MAX = 1 / 8;

/** Writes each row's entry (0 for null) into `out`. */
export type EntryReader = (b: Batch, out: Int32Array) => void;

export interface CodedInput {
  /** Entries, null's included. */
  readonly size: number;
  /** What it holds beyond its column (charged to the column's entry in the scan cache). */
  readonly bytes: number;
  /** The entries as the row evaluator sees them, null first; listed only when a table is made. */
  values(): readonly Value[];
  /** The entries of a batch column `c` of entity ids (`nullable`: it may hold NULL_ID). */
  reader(c: number, nullable: boolean): EntryReader;
}

/** A number column's distinct values by first appearance, and each node's entry among them (-1: none). */
interface NumberDictionary {
  readonly codes: Int32Array;
  readonly values: readonly number[];
}

const inputs = new WeakMap<TypedColumn, CodedInput | null>();

/** The column as a per-value input, or undefined when it is not one (boxed, too many distinct values). */
export function codedInput(column: TypedColumn): CodedInput | undefined {
  const known = inputs.get(column);
  if (known !== undefined) return known ?? undefined;
  const made = make(column);
  if (keepDerived(column, made ?? column, made?.bytes ?? 0, 'per-value input')) inputs.set(column, made ?? null);
  return made;
}

function make(column: TypedColumn): CodedInput | undefined {
  switch (column.kind) {
    case 'string':
      return column.dictionary.length > PER_VALUE_DICTIONARY_MAX ? undefined : byCodes(column.codes, () => column.dictionary, SMALL_FORM_BYTES);
    case 'int':
      if (column.max_abs <= PER_VALUE_INT_MAGNITUDE_MAX) return bySmallIntegers(column.values, column.nulls, column.max_abs);
      return byNumberDictionary(column.values, column.nulls, true, column);
    case 'float':
      return byNumberDictionary(column.values, column.nulls, false, column);
    case 'any':
      return undefined;
  }
}

/** Entries by code: code c is entry c + 1, code -1 (no value) entry 0. */
function byCodes(codes: Int32Array, list: () => readonly Value[], bytes: number): CodedInput {
  return {
    size: list().length + 1,
    bytes,
    values: () => [null, ...list()],
    reader: (c, nullable) => (b, out) => {
      const ids = b.columns[c] as Int32Array;
      if (nullable) for (let i = 0, n = b.length; i < n; i++) out[i] = ids[i] === NULL_ID ? 0 : (codes[ids[i] as number] as number) + 1;
      else for (let i = 0, n = b.length; i < n; i++) out[i] = (codes[ids[i] as number] as number) + 1;
    },
  };
}

function bySmallIntegers(values: Float64Array, nulls: Uint8Array, max_abs: number): CodedInput {
  const offset = max_abs + 1;
  return {
    size: 2 * max_abs + 2,
    bytes: SMALL_FORM_BYTES,
    values: () => {
      const out: Value[] = [null];
      for (let v = -max_abs; v <= max_abs; v++) out.push(BigInt(v));
      return out;
    },
    reader: (c, nullable) => (b, out) => {
      const ids = b.columns[c] as Int32Array;
      for (let i = 0, n = b.length; i < n; i++) {
        const id = ids[i] as number;
        out[i] = (nullable && id === NULL_ID) || nulls[id] === 1 ? 0 : (values[id] as number) + offset;
      }
    },
  };
}

function byNumberDictionary(values: Float64Array, nulls: Uint8Array, integer: boolean, column: TypedColumn): CodedInput | undefined {
  const estimate = columnDistinct(column);
  const rows = estimate.present * values.length;
  const most = Math.min(PER_VALUE_DICTIONARY_MAX, rows * PER_VALUE_DISTINCT_SHARE_MAX);
  if (estimate.values > most) return undefined;
  // The sample may have missed values: the dictionary gives up at twice what the estimate allowed.
  const dictionary = numberDictionary(values, nulls, Math.min(PER_VALUE_DICTIONARY_MAX, 2 * most));
  if (dictionary === undefined) return undefined;
  const list = dictionary.values;
  return byCodes(dictionary.codes, () => (integer ? list.map((v) => BigInt(v)) : list), dictionary.codes.byteLength + 8 * list.length + SMALL_FORM_BYTES);
}

function numberDictionary(values: Float64Array, nulls: Uint8Array, entries_max: number): NumberDictionary | undefined {
  const codes = new Int32Array(values.length);
  const seen = new Map<number, number>();
  const list: number[] = [];
  // A Map holds -0 and 0 as one key; -0 is numbered apart.
  let negative_zero = -1;
  for (let i = 0; i < values.length; i++) {
    if (nulls[i] === 1) {
      codes[i] = -1;
      continue;
    }
    const v = values[i] as number;
    let c: number | undefined;
    if (v === 0 && Object.is(v, -0)) {
      if (negative_zero < 0) {
        negative_zero = list.length;
        list.push(-0);
      }
      c = negative_zero;
    } else {
      c = seen.get(v);
      if (c === undefined) {
        c = list.length;
        seen.set(v, c);
        list.push(v);
      }
    }
    if (list.length > entries_max) return undefined;
    codes[i] = c;
  }
  return { codes, values: list };
}
