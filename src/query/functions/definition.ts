import type { Value } from '../../common/values/value.js';
import type { FunctionContext } from './context.js';
import type { FunctionSignature } from './signature.js';

export type ScalarImplementation = (args: readonly Value[], ctx: FunctionContext) => Value;

export interface ScalarFunction extends FunctionSignature {
  readonly kind: 'scalar';
  readonly call: ScalarImplementation;
  /**
   * Set when the function needs an index the query engine must check for before running it; the
   * evaluator refuses the call clearly when no such index exists (`text_match` without a text index).
   */
  readonly requires?: 'text_index';
}

/**
 * The running state of one aggregate over one group. `add` receives the aggregated expression's value
 * for one row (and, for percentiles, the percentile argument); `result` may be called once at the end.
 */
export interface Accumulator {
  add(value: Value, extra?: Value): void;
  /**
   * An INTEGER given as a double that holds it exactly (magnitude below 2^53): the same as
   * `add(BigInt(x))`, without making the BigInt. Offered by sum and avg, and by the percentiles,
   * whose percentile argument then comes from `add(null, p)` before each value.
   */
  addExactInteger?(x: number): void;
  result(): Value;
  /** Estimated bytes held, for the engine's per-query memory limit; updated as values are added. */
  memoryBytes(): number;
  /** True when `memoryBytes()` never changes, so the engine need not ask after every value. */
  readonly fixed?: boolean;
}

export interface AggregateOptions {
  /** `count(DISTINCT x)`: equivalent values count once. */
  readonly distinct: boolean;
  /** `count(*)`: counts rows, including rows where everything is null; `add` is called with null. */
  readonly star?: boolean;
}

export interface AggregateFunction extends FunctionSignature {
  readonly kind: 'aggregate';
  create(options: AggregateOptions): Accumulator;
}

export type FunctionDefinition = ScalarFunction | AggregateFunction;

export function scalar(
  name: string,
  min: number,
  max: number,
  call: ScalarImplementation,
  options: { deterministic?: boolean; requires?: 'text_index' } = {},
): ScalarFunction {
  const base = { name, min_args: min, max_args: max, kind: 'scalar' as const, deterministic: options.deterministic ?? true, call };
  return options.requires === undefined ? base : { ...base, requires: options.requires };
}
