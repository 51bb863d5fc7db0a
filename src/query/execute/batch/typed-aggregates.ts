import { assert } from '../../../common/assert.js';
import type { Value } from '../../../common/values/value.js';
import { checkedInt } from '../../values/arithmetic.js';
import { NULL_BOOL, type Vec } from './batch.js';
import type { Vectorized } from './vector-expressions.js';

/**
 * Aggregates of a typed vector kept in typed arrays indexed by group number, one set of arrays per aggregate
 * for all groups: `count`, `sum`, `avg`, `min` and `max` of a number vector (INTEGERs or FLOATs, never both,
 * never NaN: see Vec), `min` and `max` of dictionary codes, and `count` of any typed vector. A group is a
 * number (the batched grouper finds it by dictionary code, small integer or key), so a row's update is a
 * read and a write at that index: no object per group, no call through an accumulator that every aggregate
 * function shares (which V8 cannot inline once it has seen several kinds of accumulator there), and nothing
 * per group for the garbage collector to trace. Results are those of the row accumulators (aggregates.ts),
 * which each state below follows step by step.
 */

export type TypedAggregate = 'min' | 'max' | 'count' | 'sum' | 'avg';

/** One aggregate's state for every group of a run. */
export interface GroupStates {
  /** Makes room for the groups below `groups`; each new one starts empty. */
  grow(groups: number): void;
  /** Adds the first `n` rows of `v` into each row's group (`gids`), in row order. */
  feed(v: Vec, n: number, gids: Int32Array): void;
  result(g: number): Value;
}

/** Which typed form an aggregate call over `c` takes, if any (count(DISTINCT) has its own). */
export function typedAggregate(name: string, distinct: boolean, c: Vectorized | undefined): TypedAggregate | undefined {
  if (c === undefined) return undefined;
  const lower = name.toLowerCase();
  if ((lower === 'min' || lower === 'max') && (c.kind === 'num' || c.kind === 'code')) return lower;
  if (lower === 'count' && !distinct && c.kind !== 'any') return 'count';
  if ((lower === 'sum' || lower === 'avg') && !distinct && c.kind === 'num') return lower;
  return undefined;
}

export function groupStates(kind: TypedAggregate, c: Vectorized): GroupStates {
  switch (kind) {
    case 'min':
    case 'max':
      if (c.kind === 'code') return new CodeExtremes(kind === 'max', c.dictionary);
      assert(c.kind === 'num', 'a typed min or max reads a number or code vector');
      return new NumberExtremes(kind === 'max', c.integer);
    case 'count':
      return new NonNullCounts();
    case 'sum':
    case 'avg':
      assert(c.kind === 'num', 'a typed sum or avg reads a number vector');
      return c.integer ? new IntegerSums(kind === 'avg') : new FloatSums(kind === 'avg');
  }
}

/** Groups an array holds room for at first; it doubles when a run makes more. */
const INITIAL_GROUPS = 64;

/** `old` copied into a larger array of the same kind, filled with `fill` past the copy. */
function grown<T extends Float64Array | Int32Array | Uint8Array>(old: T, groups: number, fill: number, make: (n: number) => T): T {
  let size = Math.max(old.length, INITIAL_GROUPS);
  while (size < groups) size *= 2;
  const next = make(size);
  next.set(old);
  if (fill !== 0) next.fill(fill, old.length);
  return next;
}

/** count(x) of a typed vector: the rows where x is not null. */
class NonNullCounts implements GroupStates {
  private n = new Float64Array(0);

  grow(groups: number): void {
    if (groups > this.n.length) this.n = grown(this.n, groups, 0, (k) => new Float64Array(k));
  }

  feed(v: Vec, n: number, gids: Int32Array): void {
    const counts = this.n;
    switch (v.kind) {
      case 'num':
        for (let i = 0; i < n; i++) if (v.nulls[i] !== 1) counts[gids[i] as number]! += 1;
        return;
      case 'bool':
        for (let i = 0; i < n; i++) if (v.values[i] !== NULL_BOOL) counts[gids[i] as number]! += 1;
        return;
      case 'code':
        for (let i = 0; i < n; i++) if ((v.codes[i] as number) >= 0) counts[gids[i] as number]! += 1;
        return;
      case 'any':
        for (let i = 0; i < n; i++) if (v.values[i] !== null) counts[gids[i] as number]! += 1;
        return;
    }
  }

  result(g: number): Value {
    return BigInt(this.n[g] as number);
  }
}

/** min or max of numbers of one type; the first of equal values is kept, as the row accumulator keeps it. */
class NumberExtremes implements GroupStates {
  private best = new Float64Array(0);
  /** 1 once the group has seen a value. */
  private seen = new Uint8Array(0);

  constructor(
    private readonly max: boolean,
    /** The vector holds INTEGERs: the result is one. */
    private readonly integer: boolean,
  ) {}

  grow(groups: number): void {
    if (groups <= this.best.length) return;
    this.best = grown(this.best, groups, 0, (k) => new Float64Array(k));
    this.seen = grown(this.seen, groups, 0, (k) => new Uint8Array(k));
  }

  feed(v: Vec, n: number, gids: Int32Array): void {
    assert(v.kind === 'num', 'a typed min or max of numbers reads a number vector');
    const { values, nulls } = v;
    const best = this.best;
    const seen = this.seen;
    if (this.max) {
      for (let i = 0; i < n; i++) {
        if (nulls[i] === 1) continue;
        const g = gids[i] as number;
        const x = values[i] as number;
        if (seen[g] === 0) {
          seen[g] = 1;
          best[g] = x;
        } else if (x > (best[g] as number)) best[g] = x;
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      if (nulls[i] === 1) continue;
      const g = gids[i] as number;
      const x = values[i] as number;
      if (seen[g] === 0) {
        seen[g] = 1;
        best[g] = x;
      } else if (x < (best[g] as number)) best[g] = x;
    }
  }

  result(g: number): Value {
    if (this.seen[g] !== 1) return null;
    const x = this.best[g] as number;
    return this.integer ? BigInt(x) : x;
  }
}

/**
 * min or max of dictionary-coded strings: the best code so far per group, compared through the dictionary only
 * when a row's code differs from it (equal strings share a code, so a string is compared once per change, not
 * per row). Strings order by UTF-16 code units, as `orderCompare` orders two strings.
 */
class CodeExtremes implements GroupStates {
  /** -1 while the group has seen no string. */
  private best = new Int32Array(0);

  constructor(
    private readonly max: boolean,
    private readonly dictionary: readonly string[],
  ) {}

  grow(groups: number): void {
    if (groups > this.best.length) this.best = grown(this.best, groups, -1, (k) => new Int32Array(k).fill(-1));
  }

  feed(v: Vec, n: number, gids: Int32Array): void {
    assert(v.kind === 'code', 'a typed min or max of strings reads a code vector');
    const codes = v.codes;
    const best = this.best;
    const dictionary = this.dictionary;
    for (let i = 0; i < n; i++) {
      const c = codes[i] as number;
      if (c < 0) continue;
      const g = gids[i] as number;
      const b = best[g] as number;
      if (c === b) continue;
      if (b < 0) {
        best[g] = c;
        continue;
      }
      const x = dictionary[c] as string;
      const y = dictionary[b] as string;
      if (this.max ? x > y : x < y) best[g] = c;
    }
  }

  result(g: number): Value {
    const b = this.best[g] as number;
    return b < 0 ? null : (this.dictionary[b] as string);
  }
}

/** Half the safe-integer range: a partial sum kept below it stays exact after adding any value below it. */
const SMALL_LIMIT = 2 ** 52;

/**
 * sum or avg of exact INTEGERs, as the row accumulators' running sum keeps it: a double per group while the
 * partial sum stays below SMALL_LIMIT, moved into a BigInt (checked against the 64-bit range, as `+` checks it)
 * when it grows past; a value at or above the limit goes to the BigInt directly. So a sum overflows at the
 * same row, and reads the same total, as the row path's.
 */
class IntegerSums implements GroupStates {
  private small = new Float64Array(0);
  /** Rows added per group (avg's divisor). */
  private n = new Float64Array(0);
  /** The part of a group's sum moved out of `small`, for the few groups that have one. */
  private readonly big = new Map<number, bigint>();

  constructor(private readonly avg: boolean) {}

  grow(groups: number): void {
    if (groups <= this.small.length) return;
    this.small = grown(this.small, groups, 0, (k) => new Float64Array(k));
    if (this.avg) this.n = grown(this.n, groups, 0, (k) => new Float64Array(k));
  }

  feed(v: Vec, n: number, gids: Int32Array): void {
    assert(v.kind === 'num', 'a typed sum reads a number vector');
    const { values, nulls } = v;
    const small = this.small;
    const counts = this.n;
    const avg = this.avg;
    for (let i = 0; i < n; i++) {
      if (nulls[i] === 1) continue;
      const g = gids[i] as number;
      const x = values[i] as number;
      if (avg) counts[g]! += 1;
      if (x < SMALL_LIMIT && x > -SMALL_LIMIT) {
        const s = (small[g] as number) + x;
        small[g] = s;
        if (s >= SMALL_LIMIT || s <= -SMALL_LIMIT) this.flush(g);
      } else this.big.set(g, checkedInt((this.big.get(g) ?? 0n) + BigInt(x)));
    }
  }

  private flush(g: number): void {
    const s = this.small[g] as number;
    if (s === 0) return;
    this.big.set(g, checkedInt((this.big.get(g) ?? 0n) + BigInt(s)));
    this.small[g] = 0;
  }

  result(g: number): Value {
    const s = this.small[g] as number;
    const big = this.big.get(g);
    // Without a moved part the sum is the double itself (below SMALL_LIMIT, so exact and in range): no BigInt to
    // add for the many groups whose sums stay small.
    if (this.avg) {
      const n = this.n[g] as number;
      if (n === 0) return null;
      return (big === undefined ? s : Number(checkedInt(big + BigInt(s)))) / n;
    }
    return big === undefined ? BigInt(s) : checkedInt(big + BigInt(s));
  }
}

/**
 * sum or avg of FLOATs, added in row order as the row accumulators add them. A sum of no value is the
 * INTEGER 0, as the row accumulator's is (it turns to FLOAT with its first FLOAT); an avg of none is null.
 */
class FloatSums implements GroupStates {
  private sum = new Float64Array(0);
  /** Rows added per group. */
  private n = new Float64Array(0);

  constructor(private readonly avg: boolean) {}

  grow(groups: number): void {
    if (groups <= this.sum.length) return;
    this.sum = grown(this.sum, groups, 0, (k) => new Float64Array(k));
    this.n = grown(this.n, groups, 0, (k) => new Float64Array(k));
  }

  feed(v: Vec, n: number, gids: Int32Array): void {
    assert(v.kind === 'num', 'a typed sum reads a number vector');
    const { values, nulls } = v;
    const sum = this.sum;
    const counts = this.n;
    for (let i = 0; i < n; i++) {
      if (nulls[i] === 1) continue;
      const g = gids[i] as number;
      sum[g]! += values[i] as number;
      counts[g]! += 1;
    }
  }

  result(g: number): Value {
    const n = this.n[g] as number;
    // The row accumulators start from the INTEGER 0 made a FLOAT: 0 + x, never -0 + x.
    if (this.avg) return n === 0 ? null : (0 + (this.sum[g] as number)) / n;
    return n === 0 ? 0n : this.sum[g] as number;
  }
}

/** count(*) per group: a tally, or a counted expand's weight per row. */
export class RowCounts {
  private n = new Float64Array(0);

  grow(groups: number): void {
    if (groups > this.n.length) this.n = grown(this.n, groups, 0, (k) => new Float64Array(k));
  }

  add(n: number, gids: Int32Array, weights: Float64Array | undefined): void {
    const counts = this.n;
    if (weights === undefined) for (let i = 0; i < n; i++) counts[gids[i] as number]! += 1;
    else for (let i = 0; i < n; i++) counts[gids[i] as number]! += weights[i] as number;
  }

  result(g: number): Value {
    return BigInt(this.n[g] as number);
  }
}
