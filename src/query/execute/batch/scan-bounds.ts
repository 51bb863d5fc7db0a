import type { Value } from '../../../common/values/value.js';
import type { LabelMembers } from '../../../projections/graph/records.js';
import type { BoundExpression } from '../../bind/bound-expression.js';
import { conjuncts } from '../../plan/expressions.js';
import { boundPositions, comparable, keyBounds, narrowPositions, valuePositions, type KeyBound } from '../key-bounds.js';
import type { BatchPlan } from './batch-plan.js';
import type { Candidates } from './scan-candidates.js';
import { isTyped, type VectorScope } from './vector-expressions.js';

/**
 * A batched scan's members picked by the bounds its filters put on the scanned node's properties, as the fused
 * row scan picks them (column-scan.ts), but beside conjuncts of any other kind: `p.name >= 'person5' AND p.name <
 * 'person6' AND p.age > 30 AND p.id % 10 = 3` reads the column of `name`, then of `age`, over the positions kept,
 * and the batches carry only the members left, where the filters (all of them, the bounds again included) run.
 *
 * Taken only when no conjunct of those filters can fail: each is a bound (a comparison of a property with a
 * constant, null at worst) or a typed batch expression (which cannot fail, see vector-expressions.ts). Then a
 * member dropped here is one the filters drop, whose evaluation raises nothing either way; a conjunct that
 * might fail (`10 / p.x > 1` run by the row evaluator) could raise on a member a bound drops, so then the scan
 * reads every member, as before.
 */

/** Batched scans whose members bounds picked, since the process started (tests check that their scans were). */
export const boundPicks = { scans: 0 };

/** The bounds of the filters right above the scan (before any expand), or undefined when there are none to take. */
export function leadingBounds(plan: BatchPlan, scope: VectorScope): readonly KeyBound[] | undefined {
  const slot = plan.scan.variable;
  const keyOf = (e: BoundExpression): string | undefined =>
    e.kind === 'property' && e.object.kind === 'variable' && e.object.variable.id === slot ? e.key : undefined;
  const bounds: KeyBound[] = [];
  for (const stage of plan.stages) {
    if (stage.kind !== 'filter') break;
    for (const c of conjuncts(stage.op.predicate)) {
      const bound = keyBounds([c], keyOf)?.[0];
      if (bound !== undefined) bounds.push(bound);
      else if (!isTyped(c, scope)) return undefined;
    }
  }
  return bounds.length === 0 ? undefined : bounds;
}

/**
 * Narrows `picked` (the members the equalities picked, or all) to those whose values may pass each bound, in
 * order: exact integers compared as doubles, other values as stored (a member is dropped only when its
 * comparison is false or null; see key-bounds.ts). `values` holds each bound's constant for this run; a bound
 * whose constant the loops cannot compare (null, a list) or whose column has no room is skipped, which only
 * leaves more members to the filters. `equalities`: whether the scan has inline equalities, which, unless `picked`
 * answered them all, each member read must still pass. Undefined when no bound was applied.
 */
export function pickByBounds(members: LabelMembers, bounds: readonly KeyBound[], values: readonly Value[], picked: Candidates | undefined, equalities: boolean): Candidates | undefined {
  let positions = picked?.positions;
  let length = picked?.length;
  const n = members.nodes.length;
  bounds.forEach((bound, b) => {
    const c = comparable(values[b] as Value);
    if (c === undefined) return;
    const doubles = typeof c === 'number' ? members.integers(bound.key) : undefined;
    if (doubles !== undefined) {
      if (positions === undefined || length === undefined) {
        positions = new Int32Array(n);
        length = boundPositions(doubles, bound.op, c as number, positions);
      } else length = narrowPositions(doubles, bound.op, c as number, positions, length);
      return;
    }
    const column = members.column(bound.key);
    if (column === undefined) return;
    positions ??= new Int32Array(n);
    length = valuePositions(column, bound.op, c, positions, length);
  });
  if (positions === undefined || length === undefined || length === picked?.length) return picked;
  boundPicks.scans++;
  return { positions, length, exact: picked?.exact ?? !equalities };
}
