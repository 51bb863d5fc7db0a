import type { BoundExpression } from '../../bind/bound-expression.js';
import type { Vec } from './batch.js';
import type { TypedColumn } from './typed-columns.js';
import type { Vectorized } from './vector-expressions.js';

/**
 * What a batched value join (value-join-batches.ts) knows of its left keys before the pattern side runs, when
 * the left side makes the table: per key, which typed values the left rows hold. The pattern side's rows are
 * narrowed by it before they pay for a tuple's hash, its scanned nodes before they are expanded, and an
 * expand's end nodes (as a bitmap by node id the expand tests, as it tests end labels) before a row is made
 * for them. Narrowing only drops rows whose key no left row holds, which the join drops anyway; typed keys
 * cannot fail, so testing them early raises nothing the join would not.
 */

/**
 * The typed values of one key the left rows hold, by value: a byte per dictionary code, or per integer of a
 * column whose magnitudes stay within `presence_integer_magnitude_max`. Undefined for a key of other values
 * (floats, wide integers): its rows are not narrowed.
 */
export interface Presence {
  readonly offset: number;
  readonly bits: Uint8Array;
}

/** An integer key whose values stay within this magnitude is narrowed through a byte per value. */
const presence_integer_magnitude_max = 1 << 16;

export function presenceOf(k: Vectorized): Presence | undefined {
  if (k.kind === 'code') return { offset: 0, bits: new Uint8Array(k.dictionary.length) };
  if (k.kind === 'bool') return { offset: 0, bits: new Uint8Array(2) };
  if (k.kind === 'num' && k.integer && k.max_abs <= presence_integer_magnitude_max) return { offset: k.max_abs, bits: new Uint8Array(2 * k.max_abs + 1) };
  return undefined;
}

/** Marks a left key's double; a value outside the key's range is never held on the right. */
export function mark(p: Presence | undefined, x: number): void {
  if (p === undefined) return;
  const at = x + p.offset;
  if (Number.isInteger(at) && at >= 0 && at < p.bits.length) p.bits[at] = 1;
}

/**
 * The rows of the batch whose every narrowed key holds a value the left rows hold, into `out`; answers how
 * many. `vecs[k]` undefined: key k is not read here (it is not bound yet), and narrows nothing.
 */
export function narrow(vecs: readonly (Vec | undefined)[], present: readonly (Presence | undefined)[], n: number, out: Int32Array): number {
  for (let i = 0; i < n; i++) out[i] = i;
  let m = n;
  for (let k = 0; k < vecs.length; k++) {
    const p = present[k];
    const v = vecs[k];
    if (p === undefined || v === undefined) continue;
    const bits = p.bits;
    let w = 0;
    if (v.kind === 'code') {
      const codes = v.codes;
      for (let j = 0; j < m; j++) {
        const i = out[j] as number;
        const c = codes[i] as number;
        if (c >= 0 && bits[c] === 1) out[w++] = i;
      }
    } else if (v.kind === 'num') {
      const { values, nulls } = v;
      const offset = p.offset;
      for (let j = 0; j < m; j++) {
        const i = out[j] as number;
        if (nulls[i] === 0 && bits[(values[i] as number) + offset] === 1) out[w++] = i;
      }
    } else if (v.kind === 'bool') {
      const values = v.values;
      for (let j = 0; j < m; j++) {
        const i = out[j] as number;
        if (bits[values[i] as number] === 1) out[w++] = i;
      }
    } else continue;
    m = w;
  }
  return m;
}

/**
 * A bitmap by node id of the nodes whose `key` (`x.prop`, read from the typed column `column` by node id)
 * holds a value the left rows hold; undefined when the key is not such a read or its column is not the one
 * the key's vector reads (a string column must share the key's dictionary). The column spans every node id
 * the snapshot holds: an id past the bitmap reads undefined, which no test takes for 1.
 */
export function presenceBitmap(key: BoundExpression, k: Vectorized, p: Presence | undefined, column: TypedColumn | undefined): Uint8Array | undefined {
  if (p === undefined || column === undefined || key.kind !== 'property' || key.object.kind !== 'variable') return undefined;
  const bits = p.bits;
  if (k.kind === 'code' && column.kind === 'string' && column.dictionary === k.dictionary) {
    const codes = column.codes;
    const out = new Uint8Array(codes.length);
    for (let id = 0, n = codes.length; id < n; id++) {
      const c = codes[id] as number;
      if (c >= 0 && bits[c] === 1) out[id] = 1;
    }
    return out;
  }
  if (k.kind === 'num' && column.kind === 'int') {
    const { values, nulls } = column;
    const out = new Uint8Array(values.length);
    const offset = p.offset;
    for (let id = 0, n = values.length; id < n; id++) {
      if (nulls[id] === 0 && bits[(values[id] as number) + offset] === 1) out[id] = 1;
    }
    return out;
  }
  return undefined;
}
