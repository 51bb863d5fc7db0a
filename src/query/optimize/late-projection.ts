import type { BoundExpression } from '../bind/bound-expression.js';
import { freeSlots } from '../plan/expressions.js';
import { transformUp, type LogicalOp, type ProjectItem, type SortKey } from '../plan/logical.js';
import { boundAt } from './slots.js';

/**
 * A top-k right above a projection computes the projection for the few rows it keeps instead of for
 * every row it reads: `RETURN p.name, p.age ORDER BY p.age DESC LIMIT 10` then reads `p.age` per row
 * and `p.name` only for rows that tie with or beat the current tenth. The sort keys that name a
 * projected column are replaced by that column's expression.
 *
 * Equivalent only when evaluating the projection later cannot change what it answers or whether it
 * fails, so every item must be a variable, a literal, a parameter, a property of a node or
 * relationship variable, a test that cannot fail over those, or a CASE of them, and nothing under the
 * projection may write to the graph.
 */
export function lateProjection(plan: LogicalOp): LogicalOp {
  return transformUp(plan, (op) => {
    if (op.op !== 'top' || op.input.op !== 'project') return op;
    const project = op.input;
    const below = project.input;
    if (!project.items.every((i) => deferrable(i.expression)) || writes(below)) return op;
    // A projected slot the input also binds would be read by the keys with the wrong value.
    const bound = boundAt(below, new Set());
    if (project.items.some((i) => bound.has(i.variable))) return op;
    const keys = substitute(op.keys, project.items);
    if (keys === undefined) return op;
    return { ...project, input: { ...op, input: below, keys } };
  });
}

function deferrable(e: BoundExpression): boolean {
  switch (e.kind) {
    case 'variable':
    case 'literal':
    case 'parameter':
      return true;
    case 'property':
      return e.object.kind === 'variable' && (e.object.variable.type.kind === 'node' || e.object.variable.type.kind === 'relationship');
    case 'binary':
    case 'is_null':
    case 'unary':
      return certainBoolean(e);
    case 'case':
      return (
        (e.subject === undefined ? e.alternatives.every((a) => certainBoolean(a.when)) : deferrable(e.subject) && e.alternatives.every((a) => deferrable(a.when))) &&
        e.alternatives.every((a) => deferrable(a.then)) &&
        (e.otherwise === undefined || deferrable(e.otherwise))
      );
    default:
      return false;
  }
}

/**
 * A test that answers true, false or null and never fails, whatever its deferrable operands hold: a
 * comparison (values that cannot be compared give null), IS [NOT] NULL, and AND/OR/XOR/NOT of such tests
 * (on other operands they fail on a non-boolean). So `CASE WHEN p.age >= 65 THEN 'senior' ELSE 'adult' END`
 * can be computed for the kept rows only.
 */
function certainBoolean(e: BoundExpression): boolean {
  switch (e.kind) {
    case 'is_null':
      return deferrable(e.operand);
    case 'unary':
      return e.op === 'not' && certainBoolean(e.operand);
    case 'binary':
      switch (e.op) {
        case 'eq':
        case 'neq':
        case 'lt':
        case 'gt':
        case 'lte':
        case 'gte':
          return deferrable(e.left) && deferrable(e.right);
        case 'and':
        case 'or':
        case 'xor':
          return certainBoolean(e.left) && certainBoolean(e.right);
        default:
          return false;
      }
    default:
      return false;
  }
}

const writing: ReadonlySet<LogicalOp['op']> = new Set(['create', 'merge', 'set', 'remove', 'delete', 'call']);

function writes(op: LogicalOp): boolean {
  let found = false;
  transformUp(op, (o) => {
    if (writing.has(o.op)) found = true;
    return o;
  });
  return found;
}

/** The keys over the projection's input, or undefined when a key uses a projected column other than whole. */
function substitute(keys: readonly SortKey[], items: readonly ProjectItem[]): SortKey[] | undefined {
  const projected = new Map(items.map((i) => [i.variable, i.expression]));
  const out: SortKey[] = [];
  for (const k of keys) {
    const e = k.expression;
    if (e.kind === 'variable' && projected.has(e.variable.id)) {
      out.push({ ...k, expression: projected.get(e.variable.id) as BoundExpression });
      continue;
    }
    for (const s of freeSlots(e)) if (projected.has(s)) return undefined;
    out.push(k);
  }
  return out;
}
