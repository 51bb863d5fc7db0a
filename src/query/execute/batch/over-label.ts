import type { BoundExpression } from '../../bind/bound-expression.js';
import { conjuncts } from '../../plan/expressions.js';
import { isTyped, typedPerValueOnly, type VectorScope } from './vector-expressions.js';

/**
 * When a pipeline over a label alone (no expand) runs batched rather than as what it falls back to.
 *
 * A fused scan (column-scan.ts, under an aggregation or a top-k) reads the same columns as batches do, one member
 * at a time through a few closures, and where plain operators suffice those reach optimized code in fewer runs.
 * Batches pay when some expression is more than plain operators: a number kernel (`/`, `%`, abs, coalesce...),
 * a per-value table (a string function, IN, a CASE whose results mix columns and literals), or, as the caller
 * says (`alsoPays`), something else a fused scan does row at a time. The row operators (under DISTINCT or a
 * sort, which no fused scan serves) make a row of references and box each value per member: typed batches
 * always pay over them.
 */
export type OverLabel = 'fused' | 'rows';

/**
 * Whether batches pay over a label alone for these filters and these keys and arguments (`exprs`). Keys and
 * arguments must all run typed, since a typed expression cannot fail (see vector-expressions.ts) and batches
 * evaluate each over every member where the fallback evaluates it lazily. A filter must start with a typed
 * conjunct: its typed conjuncts run over batches and the rest per row over the members they keep
 * (conjunct-filters.ts); one that starts with a conjunct evaluated per row would be the row operators again.
 */
export function batchesPayOverLabel(filters: readonly BoundExpression[], exprs: readonly BoundExpression[], scope: VectorScope, overLabel: OverLabel, alsoPays = false): boolean {
  if (!exprs.every((e) => isTyped(e, scope))) return false;
  const typedParts: BoundExpression[] = [...exprs];
  for (const f of filters) {
    const parts = conjuncts(f);
    let typed = 0;
    while (typed < parts.length && isTyped(parts[typed] as BoundExpression, scope)) typed++;
    if (typed === 0) return false;
    typedParts.push(...parts.slice(0, typed));
  }
  if (overLabel === 'rows') return true;
  return alsoPays || typedParts.some((e) => !byOperators(e) || typedPerValueOnly(e, scope));
}

/** Whether `e` is made only of what batched expressions type by their operators (see vector-expressions.ts). */
function byOperators(e: BoundExpression): boolean {
  switch (e.kind) {
    case 'literal':
    case 'parameter':
    case 'variable':
      return true;
    case 'property':
      return byOperators(e.object);
    case 'is_null':
      return byOperators(e.operand);
    case 'unary':
      return byOperators(e.operand);
    case 'binary':
      return OPERATORS.has(e.op) && byOperators(e.left) && byOperators(e.right);
    case 'case':
      return (
        (e.subject === undefined || byOperators(e.subject)) &&
        e.alternatives.every((a) => byOperators(a.when) && byOperators(a.then)) &&
        (e.otherwise === undefined || byOperators(e.otherwise))
      );
    default:
      return false;
  }
}

const OPERATORS: ReadonlySet<string> = new Set(['and', 'or', 'xor', 'eq', 'neq', 'lt', 'gt', 'lte', 'gte', 'add', 'sub', 'mul']);
