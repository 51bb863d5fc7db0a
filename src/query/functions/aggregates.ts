import { ValueHashSet } from '../../common/values/hash.js';
import { estimateValueBytes } from '../../common/values/memory.js';
import { orderCompare } from '../../common/values/order.js';
import { DurationValue } from '../../common/values/temporal.js';
import { typeName, type Value } from '../../common/values/value.js';
import { argumentError, runtimeTypeError } from '../errors.js';
import { add as addValues, checkedInt } from '../values/arithmetic.js';
import { durationDivide } from '../values/temporal-arithmetic.js';
import type { Accumulator, AggregateFunction, AggregateOptions } from './definition.js';

/**
 * The aggregate functions as accumulators. Every aggregate except `count(*)` skips nulls; with
 * DISTINCT, equivalent values are aggregated once (the seen-set counts toward memory).
 */

const BYTES_PER_ENTRY = 16;

abstract class Base implements Accumulator {
  protected bytes = 64;
  fixed = false;
  abstract add(value: Value, extra?: Value): void;
  abstract result(): Value;
  memoryBytes(): number {
    return this.bytes;
  }
}

/** Counted in a JavaScript number, exact up to 2^53 rows (far beyond any one statement); a BigInt would allocate per row. */
class Count extends Base {
  private n = 0;
  constructor(private readonly star: boolean) {
    super();
    this.fixed = true;
  }
  add(value: Value): void {
    if (this.star || value !== null) this.n++;
  }
  result(): Value {
    return BigInt(this.n);
  }
}

/** Half the safe-integer range: a partial sum kept below it stays exact after adding any value below it. */
const SMALL_LIMIT = 2 ** 52;

/**
 * An exact INTEGER running sum that adds in a JavaScript number while the partial sum is small and
 * moves it into a BigInt when it grows, so a scan of ordinary integers allocates nothing per row.
 * Overflow of the 64-bit range is checked whenever the BigInt part changes and on reading.
 */
class IntSum {
  private small = 0;
  private big = 0n;
  add(value: bigint): void {
    const x = Number(value);
    if (x < SMALL_LIMIT && x > -SMALL_LIMIT) this.addSmall(x);
    else this.big = checkedInt(this.big + value);
  }
  /** `add(BigInt(x))` for an integer-valued double of magnitude below 2^53. */
  addNumber(x: number): void {
    if (x < SMALL_LIMIT && x > -SMALL_LIMIT) this.addSmall(x);
    else this.big = checkedInt(this.big + BigInt(x));
  }
  private addSmall(x: number): void {
    this.small += x;
    if (this.small >= SMALL_LIMIT || this.small <= -SMALL_LIMIT) this.flush();
  }
  value(): bigint {
    this.flush();
    return this.big;
  }
  private flush(): void {
    if (this.small === 0) return;
    this.big = checkedInt(this.big + BigInt(this.small));
    this.small = 0;
  }
}

/**
 * Sum of numbers (INTEGER while every input is, with overflow checks) or of durations. Once a FLOAT
 * arrives the sum is a FLOAT from then on, the integers before it converted once, as `+` would.
 */
class Sum extends Base {
  private ints: IntSum | undefined = new IntSum();
  private float = 0;
  private duration: DurationValue | null = null;
  private seen = false;
  constructor() {
    super();
    this.fixed = true;
  }
  add(value: Value): void {
    if (value === null) return;
    if (typeof value === 'bigint' && this.duration === null) {
      this.seen = true;
      if (this.ints !== undefined) this.ints.add(value);
      else this.float += Number(value);
      return;
    }
    if (typeof value === 'number' && this.duration === null) {
      this.seen = true;
      if (this.ints !== undefined) {
        this.float = Number(this.ints.value()) + value;
        this.ints = undefined;
      } else this.float += value;
      return;
    }
    if (!(value instanceof DurationValue)) {
      if (typeof value === 'bigint' || typeof value === 'number') throw runtimeTypeError('InvalidArgumentType', 'sum() cannot mix numbers and durations');
      throw runtimeTypeError('InvalidArgumentType', `sum() expects numbers or durations, got ${typeName(value)}`);
    }
    if (this.seen && this.duration === null) throw runtimeTypeError('InvalidArgumentType', 'sum() cannot mix numbers and durations');
    this.seen = true;
    this.duration = addValues(this.duration ?? DurationValue.ZERO, value) as DurationValue;
  }
  addExactInteger(x: number): void {
    if (this.duration !== null || this.ints === undefined) return this.add(BigInt(x));
    this.seen = true;
    this.ints.addNumber(x);
  }
  result(): Value {
    if (this.duration !== null) return this.duration;
    return this.ints !== undefined ? this.ints.value() : this.float;
  }
}

class Avg extends Base {
  private readonly ints = new IntSum();
  private floatSum = 0;
  private anyFloat = false;
  private duration: DurationValue | null = null;
  private n = 0;
  constructor() {
    super();
    this.fixed = true;
  }
  add(value: Value): void {
    if (typeof value === 'bigint') {
      if (this.duration !== null) throw runtimeTypeError('InvalidArgumentType', 'avg() cannot mix numbers and durations');
      this.ints.add(value);
    } else if (value === null) {
      return;
    } else if (value instanceof DurationValue) {
      if (this.n > 0 && this.duration === null) throw runtimeTypeError('InvalidArgumentType', 'avg() cannot mix numbers and durations');
      this.duration = addValues(this.duration ?? DurationValue.ZERO, value) as DurationValue;
    } else if (typeof value === 'number') {
      if (this.duration !== null) throw runtimeTypeError('InvalidArgumentType', 'avg() cannot mix numbers and durations');
      this.floatSum += value;
      this.anyFloat = true;
    } else {
      throw runtimeTypeError('InvalidArgumentType', `avg() expects numbers or durations, got ${typeName(value)}`);
    }
    this.n++;
  }
  addExactInteger(x: number): void {
    if (this.duration !== null) return this.add(BigInt(x));
    this.ints.addNumber(x);
    this.n++;
  }
  result(): Value {
    if (this.n === 0) return null;
    if (this.duration !== null) return durationDivide(this.duration, BigInt(this.n));
    return (Number(this.ints.value()) + (this.anyFloat ? this.floatSum : 0)) / this.n;
  }
}

class Extreme extends Base {
  private best: Value = null;
  constructor(private readonly sign: 1 | -1) {
    super();
  }
  add(value: Value): void {
    if (value === null) return;
    if (this.best === null || this.sign * orderCompare(value, this.best) > 0) {
      this.best = value;
      this.bytes = 64 + estimateValueBytes(value);
    }
  }
  result(): Value {
    return this.best;
  }
}

class Collect extends Base {
  private readonly items: Value[] = [];
  add(value: Value): void {
    if (value === null) return;
    this.items.push(value);
    this.bytes += 8 + estimateValueBytes(value);
  }
  result(): Value {
    return this.items;
  }
}

/** Standard deviation by Welford's method (numerically stable in one pass). */
class StdDev extends Base {
  private n = 0;
  private mean = 0;
  private m2 = 0;
  constructor(private readonly sample: boolean) {
    super();
    this.fixed = true;
  }
  add(value: Value): void {
    if (value === null) return;
    if (typeof value !== 'bigint' && typeof value !== 'number') {
      throw runtimeTypeError('InvalidArgumentType', `stDev() expects numbers, got ${typeName(value)}`);
    }
    const x = Number(value);
    this.n++;
    const d = x - this.mean;
    this.mean += d / this.n;
    this.m2 += d * (x - this.mean);
  }
  result(): Value {
    const div = this.sample ? this.n - 1 : this.n;
    return div <= 0 ? 0 : Math.sqrt(this.m2 / div);
  }
}

function percentileOf(p: Value | undefined): number {
  if (p === null || p === undefined) throw argumentError('NumberOutOfRange', 'percentile must be a number between 0.0 and 1.0, got null');
  if (typeof p !== 'bigint' && typeof p !== 'number') {
    throw runtimeTypeError('InvalidArgumentType', `percentile must be a number, got ${typeName(p)}`);
  }
  const x = Number(p);
  if (!(x >= 0 && x <= 1)) throw argumentError('NumberOutOfRange', `percentile must be between 0.0 and 1.0, got ${x}`);
  return x;
}

class Percentile extends Base {
  private readonly values: (bigint | number)[] = [];
  /** Every value is an INTEGER: they sort by `<` on BigInts, the order orderCompare gives them, far cheaper. */
  private integers = true;
  private percentile: number | undefined;
  /**
   * INTEGERs given as exact doubles (`addExactInteger`), in the first `exactCount` places: they sort as
   * doubles, with no BigInt made or compared per value. The percentile itself comes from `add(null, p)`.
   */
  private exact = new Float64Array(16);
  private exactCount = 0;
  constructor(private readonly continuous: boolean) {
    super();
  }
  addExactInteger(x: number): void {
    if (this.exactCount === this.exact.length) {
      const grown = new Float64Array(this.exact.length * 2);
      grown.set(this.exact);
      this.exact = grown;
    }
    this.exact[this.exactCount++] = x;
    this.bytes += BYTES_PER_ENTRY;
  }
  add(value: Value, extra?: Value): void {
    // The percentile is checked on every row, so a bad one fails even when every value is null.
    const p = percentileOf(extra);
    this.percentile ??= p;
    if (value === null) return;
    if (typeof value !== 'bigint' && typeof value !== 'number') {
      throw runtimeTypeError('InvalidArgumentType', `percentile functions expect numbers, got ${typeName(value)}`);
    }
    if (typeof value !== 'bigint') this.integers = false;
    this.values.push(value);
    this.bytes += BYTES_PER_ENTRY;
  }
  result(): Value {
    if (this.exactCount > 0 && this.values.length === 0) return this.exactResult();
    // Values from both paths: the exact ones join the rest as the INTEGERs they are.
    for (let i = 0; i < this.exactCount; i++) this.values.push(BigInt(this.exact[i] as number));
    this.exactCount = 0;
    const n = this.values.length;
    if (n === 0 || this.percentile === undefined) return null;
    const sorted = this.values.slice().sort(this.integers ? (a, b) => (a < b ? -1 : a > b ? 1 : 0) : (a, b) => orderCompare(a, b));
    const p = this.percentile;
    if (this.continuous) {
      const pos = p * (n - 1);
      const lo = Math.floor(pos);
      const hi = Math.ceil(pos);
      const a = Number(sorted[lo]);
      const b = Number(sorted[hi]);
      return lo === hi ? a : a + (b - a) * (pos - lo);
    }
    const index = Math.max(0, Math.ceil(p * n) - 1);
    return sorted[Math.min(index, n - 1)] as bigint | number;
  }
  /**
   * The same answer over the exact doubles alone, by selecting the one or two ranks it needs in
   * place (linear on average) rather than sorting them all.
   */
  private exactResult(): Value {
    const n = this.exactCount;
    if (this.percentile === undefined) return null;
    const values = this.exact;
    const p = this.percentile;
    if (this.continuous) {
      const pos = p * (n - 1);
      const lo = Math.floor(pos);
      const a = selectRank(values, n, lo);
      if (lo === Math.ceil(pos)) return a;
      // Everything after rank `lo` is at least `a` now: the next rank is the least of them.
      let b = Infinity;
      for (let i = lo + 1; i < n; i++) if ((values[i] as number) < b) b = values[i] as number;
      return a + (b - a) * (pos - lo);
    }
    const index = Math.max(0, Math.ceil(p * n) - 1);
    return BigInt(selectRank(values, n, Math.min(index, n - 1)));
  }
}

/** Rounds of partitioning a selection may take before it sorts what is left (bounds the worst case). */
const select_rounds_max = 64;

/**
 * The value of rank `k` (0-based) among `a[0..n)`, which holds no NaN, reordering them in place so
 * that nothing before index k is larger and nothing after it smaller: Hoare's selection with a
 * median-of-three pivot, falling back to sorting the remaining range after `select_rounds_max`
 * rounds, so crafted input costs at most a sort.
 */
function selectRank(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  for (let round = 0; hi > lo; round++) {
    if (round === select_rounds_max) {
      a.subarray(lo, hi + 1).sort();
      break;
    }
    const x = a[lo] as number;
    const y = a[(lo + hi) >>> 1] as number;
    const z = a[hi] as number;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i++;
        j--;
      }
    }
    // a[lo..j] <= pivot, a[i..hi] >= pivot, and anything between equals it.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k] as number;
}

/** Wraps an accumulator so equivalent values reach it once. */
class Distinct implements Accumulator {
  private readonly seen = new ValueHashSet();
  private bytes = 0;
  constructor(private readonly inner: Accumulator) {}
  add(value: Value, extra?: Value): void {
    if (value === null) {
      this.inner.add(value, extra);
      return;
    }
    if (this.seen.add(value)) {
      this.bytes += 32 + estimateValueBytes(value);
      this.inner.add(value, extra);
    }
  }
  result(): Value {
    return this.inner.result();
  }
  memoryBytes(): number {
    return this.bytes + this.inner.memoryBytes();
  }
}

function aggregate(name: string, min: number, max: number, make: (o: AggregateOptions) => Accumulator): AggregateFunction {
  return {
    name,
    min_args: min,
    max_args: max,
    kind: 'aggregate',
    deterministic: true,
    create: (o) => (o.distinct ? new Distinct(make(o)) : make(o)),
  };
}

export const aggregateFunctions: readonly AggregateFunction[] = [
  aggregate('count', 0, 1, (o) => new Count(o.star === true)),
  aggregate('sum', 1, 1, () => new Sum()),
  aggregate('avg', 1, 1, () => new Avg()),
  aggregate('min', 1, 1, () => new Extreme(-1)),
  aggregate('max', 1, 1, () => new Extreme(1)),
  aggregate('collect', 1, 1, () => new Collect()),
  aggregate('stdev', 1, 1, () => new StdDev(true)),
  aggregate('stdevp', 1, 1, () => new StdDev(false)),
  aggregate('percentilecont', 2, 2, () => new Percentile(true)),
  aggregate('percentiledisc', 2, 2, () => new Percentile(false)),
];

