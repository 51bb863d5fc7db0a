import { assert } from '../../../common/assert.js';
import type { Value } from '../../../common/values/value.js';
import type { Accumulator } from '../../functions/definition.js';
import { NULL_BOOL, type Vec } from './batch.js';
import type { Vectorized } from './vector-expressions.js';

/**
 * Aggregates of a typed vector kept as plain numbers per group: `min` and `max` of a number vector
 * (INTEGERs or FLOATs, never both, never NaN: see Vec) or of dictionary codes, and `count` of any typed vector. The row
 * accumulators take a boxed value per row (a BigInt made per row for an INTEGER column) through a call
 * that every aggregate function shares, which V8 cannot inline once it has seen several kinds of
 * accumulator there; these take a double through a call of one class only.
 */

/** min or max of numbers of one type; the first of equal values is kept, as the row accumulator keeps it. */
export class NumberExtreme implements Accumulator {
  readonly fixed = true;
  private value = 0;
  private seen = false;

  constructor(
    private readonly max: boolean,
    /** The vector holds INTEGERs: the result is one. */
    private readonly integer: boolean,
  ) {}

  add(): void {
    assert(false, 'a typed min or max is fed numbers only');
  }

  addNumber(x: number): void {
    if (!this.seen) {
      this.value = x;
      this.seen = true;
    } else if (this.max ? x > this.value : x < this.value) this.value = x;
  }

  result(): Value {
    if (!this.seen) return null;
    return this.integer ? BigInt(this.value) : this.value;
  }

  memoryBytes(): number {
    return 24;
  }
}

/**
 * min or max of dictionary-coded strings: the best code so far, compared through the dictionary only when a
 * row's code differs from it (equal strings share a code, so a string is compared once per change, not per row).
 * Strings order by UTF-16 code units, as `orderCompare` orders two strings.
 */
export class CodeExtreme implements Accumulator {
  readonly fixed = true;
  private best = -1;

  constructor(
    private readonly max: boolean,
    private readonly dictionary: readonly string[],
  ) {}

  add(): void {
    assert(false, 'a typed min or max of strings is fed codes only');
  }

  addCode(code: number): void {
    const best = this.best;
    if (code === best) return;
    if (best < 0) {
      this.best = code;
      return;
    }
    const x = this.dictionary[code] as string;
    const y = this.dictionary[best] as string;
    if (this.max ? x > y : x < y) this.best = code;
  }

  result(): Value {
    return this.best < 0 ? null : (this.dictionary[this.best] as string);
  }

  memoryBytes(): number {
    return 24;
  }
}

/** count(x) of a typed vector: the rows where x is not null. */
export class NonNullCount implements Accumulator {
  readonly fixed = true;
  n = 0;

  add(): void {
    assert(false, 'a typed count is tallied from its vector');
  }

  result(): Value {
    return BigInt(this.n);
  }

  memoryBytes(): number {
    return 16;
  }
}

export type TypedAggregate = 'min' | 'max' | 'count';

/** Which typed form an aggregate call over `c` takes, if any (count(DISTINCT) has its own). */
export function typedAggregate(name: string, distinct: boolean, c: Vectorized | undefined): TypedAggregate | undefined {
  if (c === undefined) return undefined;
  const lower = name.toLowerCase();
  if ((lower === 'min' || lower === 'max') && (c.kind === 'num' || c.kind === 'code')) return lower;
  if (lower === 'count' && !distinct && c.kind !== 'any') return 'count';
  return undefined;
}

export function createTyped(kind: TypedAggregate, c: Vectorized): Accumulator {
  switch (kind) {
    case 'min':
    case 'max':
      return c.kind === 'code' ? new CodeExtreme(kind === 'max', c.dictionary) : new NumberExtreme(kind === 'max', c.kind === 'num' && c.integer);
    case 'count':
      return new NonNullCount();
  }
}

/** Feeds the first `n` rows of `v` into aggregate `a` of each row's group (`gids`). */
export function feedTyped(kind: TypedAggregate, v: Vec, n: number, gids: Int32Array, accs: readonly (readonly (Accumulator | undefined)[])[], a: number): void {
  if (kind === 'count') {
    for (let i = 0; i < n; i++) if (!isNull(v, i)) ((accs[gids[i] as number] as readonly (Accumulator | undefined)[])[a] as NonNullCount).n++;
    return;
  }
  if (v.kind === 'code') {
    const codes = v.codes;
    for (let i = 0; i < n; i++) {
      const c = codes[i] as number;
      if (c >= 0) ((accs[gids[i] as number] as readonly (Accumulator | undefined)[])[a] as CodeExtreme).addCode(c);
    }
    return;
  }
  assert(v.kind === 'num', 'a typed min or max reads a number or code vector');
  const { values, nulls } = v;
  for (let i = 0; i < n; i++) {
    if (nulls[i] === 1) continue;
    ((accs[gids[i] as number] as readonly (Accumulator | undefined)[])[a] as NumberExtreme).addNumber(values[i] as number);
  }
}

function isNull(v: Vec, i: number): boolean {
  switch (v.kind) {
    case 'num':
      return v.nulls[i] === 1;
    case 'bool':
      return v.values[i] === NULL_BOOL;
    case 'code':
      return (v.codes[i] as number) < 0;
    case 'any':
      return v.values[i] === null;
  }
}

type Groups = readonly (readonly (Accumulator | undefined)[])[];

/**
 * Exact integers into `sum` or `avg` accumulators. The two loops are the same text on purpose: each call
 * site of `addExactInteger` then only ever sees one accumulator class, so it stays monomorphic (and
 * inlined) however many kinds of aggregates the process has run before; one shared loop turned
 * megamorphic, which made a query slower in a process that had run many others than in a fresh one.
 */
export function feedExactIntegers(name: string, v: Extract<Vec, { kind: 'num' }>, n: number, gids: Int32Array, accs: Groups, a: number): void {
  if (name.toLowerCase() === 'avg') feedExactAvg(v, n, gids, accs, a);
  else feedExactSum(v, n, gids, accs, a);
}

function feedExactSum(v: Extract<Vec, { kind: 'num' }>, n: number, gids: Int32Array, accs: Groups, a: number): void {
  const { values, nulls } = v;
  for (let i = 0; i < n; i++) {
    if (nulls[i] === 1) continue;
    const acc = (accs[gids[i] as number] as readonly (Accumulator | undefined)[])[a] as Required<Pick<Accumulator, 'addExactInteger'>>;
    acc.addExactInteger(values[i] as number);
  }
}

function feedExactAvg(v: Extract<Vec, { kind: 'num' }>, n: number, gids: Int32Array, accs: Groups, a: number): void {
  const { values, nulls } = v;
  for (let i = 0; i < n; i++) {
    if (nulls[i] === 1) continue;
    const acc = (accs[gids[i] as number] as readonly (Accumulator | undefined)[])[a] as Required<Pick<Accumulator, 'addExactInteger'>>;
    acc.addExactInteger(values[i] as number);
  }
}
