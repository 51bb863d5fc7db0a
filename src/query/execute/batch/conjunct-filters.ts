import type { BoundExpression } from '../../bind/bound-expression.js';
import { conjunction, conjuncts } from '../../plan/expressions.js';
import { BATCH_ROWS, NULL_BOOL, type Batch } from './batch.js';
import { filterStage, type BatchConsumer } from './stages.js';
import { isTyped, type VectorScope } from './vector-expressions.js';

/**
 * A batched filter taken conjunct by conjunct, with the batch compacted between them (the rows left are the
 * selection the next conjunct runs over): `abs(p.age - 50) < 3 AND p.id % 2 = 0` computes the modulo only for
 * the one member in sixteen that the first conjunct keeps, where one predicate over the whole batch computed both
 * for every member.
 *
 * The row filter evaluates the conjuncts left to right and stops at the first FALSE, so a conjunct is evaluated
 * on a row exactly when none before it was FALSE (TRUE or NULL). The conjuncts up to the first one that does not
 * run typed are typed, and typed expressions cannot fail (vector-expressions.ts): skipping them on a row changes
 * nothing but the answer. When every conjunct is typed each drops its non-TRUE rows. When some are not (a
 * function per row, a division that may fail), the typed ones before them drop only their FALSE rows, and the
 * rest, in order, runs per row over what is left, NULLs included, so it raises where, and only if, the row filter
 * would; a row then passes when the rest is TRUE and no typed conjunct was NULL.
 */

/** What a filter needs of the run's expressions: typing (isTyped) and a predicate over batches. */
export interface FilterScope extends VectorScope {
  /** 1 where `e` is TRUE on a row of the batch; fails on a non-boolean as the row filter fails. */
  predicate(e: BoundExpression): (b: Batch) => Uint8Array;
}

/** Batched filters compiled conjunct by conjunct since the process started (tests check that theirs were). */
export const conjunctFilters = { compiled: 0 };

export function conjunctFilter(e: BoundExpression, scope: FilterScope, next: BatchConsumer): BatchConsumer {
  const parts = conjuncts(e);
  let typed = 0;
  while (typed < parts.length && isTyped(parts[typed] as BoundExpression, scope)) typed++;
  // One conjunct, or none typed to start with: the predicate over the whole batch, as one.
  if (parts.length === 1 || typed === 0) return filterStage(scope.predicate(e), next);
  conjunctFilters.compiled++;
  const tests = parts.slice(0, typed).map((p) => scope.predicate(p));
  if (typed === parts.length) {
    let push = next;
    for (let i = tests.length - 1; i >= 0; i--) push = filterStage(tests[i] as (b: Batch) => Uint8Array, push);
    return push;
  }
  const rest = scope.predicate(conjunction(parts.slice(typed)) as BoundExpression);
  return typedThenRest(tests, rest, next);
}

/**
 * The typed conjuncts `tests`, each dropping only its FALSE rows and noting a NULL, then `rest` per row over the
 * rows left; compacts the batch's columns (and the weights, when there are) in place.
 */
function typedThenRest(tests: readonly ((b: Batch) => Uint8Array)[], rest: (b: Batch) => Uint8Array, next: BatchConsumer): BatchConsumer {
  /** Row i of the batch met a NULL conjunct (it is evaluated further, but cannot pass). */
  const unknown = new Uint8Array(BATCH_ROWS);
  const compact = (b: Batch, weights: Float64Array | undefined, keep: (i: number) => boolean): void => {
    const cols = b.columns;
    let w = 0;
    for (let i = 0, n = b.length; i < n; i++) {
      if (!keep(i)) continue;
      if (w !== i) {
        for (let c = 0; c < cols.length; c++) (cols[c] as Int32Array)[w] = (cols[c] as Int32Array)[i] as number;
        if (weights !== undefined) weights[w] = weights[i] as number;
        unknown[w] = unknown[i] as number;
      }
      w++;
    }
    b.length = w;
  };
  return (b, weights) => {
    unknown.fill(0, 0, b.length);
    for (let t = 0; t < tests.length && b.length > 0; t++) {
      const x = (tests[t] as (b: Batch) => Uint8Array)(b);
      for (let i = 0, n = b.length; i < n; i++) if (x[i] === NULL_BOOL) unknown[i] = 1;
      compact(b, weights, (i) => x[i] !== 0);
    }
    if (b.length === 0) return;
    const y = rest(b);
    compact(b, weights, (i) => y[i] === 1 && unknown[i] === 0);
    if (b.length > 0) next(b, weights);
  };
}
