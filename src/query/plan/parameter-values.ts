import type { Value } from '../../common/values/value.js';
import type { BoundExpression } from '../bind/bound-expression.js';

/**
 * Expressions whose value is fixed for a run before any row is read: parameters, literals and simple operators
 * over them (`$min + 1`, `-$x`, `$prefix + 'a'`, `[$a, $b]`). The planner weighs such a value as it weighs a
 * literal (GraphCounts.parameter), and the engine evaluates it again for each run to find the plan kept for it.
 * Only for estimates: a value this cannot tell (an operator not covered, an overflow, a division by zero) is
 * undefined, and the row evaluator still computes and checks the real one.
 */

/** Whether `e` reads at least one parameter and nothing but parameters, literals and the operators `runValue` covers. */
export function isRunValue(e: BoundExpression): boolean {
  let parameters = 0;
  const visit = (x: BoundExpression): boolean => {
    switch (x.kind) {
      case 'parameter':
        parameters++;
        return true;
      case 'literal':
        return true;
      case 'list':
        return x.items.every(visit);
      case 'unary':
        return (x.op === 'neg' || x.op === 'pos') && visit(x.operand);
      case 'binary':
        return ARITHMETIC.has(x.op) && visit(x.left) && visit(x.right);
      default:
        return false;
    }
  };
  return visit(e) && parameters > 0;
}

const ARITHMETIC: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'div']);

/** The value of a run value (see `isRunValue`) for `params`; undefined when it cannot be told here. */
export function runValue(e: BoundExpression, params: ReadonlyMap<string, Value>): Value | undefined {
  switch (e.kind) {
    case 'parameter':
      return params.get(e.name);
    case 'literal':
      return e.value as Value;
    case 'list': {
      const items: Value[] = [];
      for (const i of e.items) {
        const v = runValue(i, params);
        if (v === undefined) return undefined;
        items.push(v);
      }
      return items;
    }
    case 'unary': {
      const v = runValue(e.operand, params);
      if (e.op === 'pos') return typeof v === 'bigint' || typeof v === 'number' ? v : undefined;
      return e.op === 'neg' && (typeof v === 'bigint' || typeof v === 'number') ? -v : undefined;
    }
    case 'binary': {
      const a = runValue(e.left, params);
      const b = runValue(e.right, params);
      if (a === undefined || b === undefined || !ARITHMETIC.has(e.op)) return undefined;
      return arithmetic(e.op, a, b);
    }
    default:
      return undefined;
  }
}

function arithmetic(op: string, a: Value, b: Value): Value | undefined {
  if (op === 'add' && typeof a === 'string' && typeof b === 'string') return a + b;
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (op === 'div' && b === 0n) return undefined;
    const v = op === 'add' ? a + b : op === 'sub' ? a - b : op === 'mul' ? a * b : a / b;
    // Past 64 bits the row evaluator raises; the estimate does without.
    return v > INT64_MAX || v < -INT64_MAX - 1n ? undefined : v;
  }
  if ((typeof a !== 'bigint' && typeof a !== 'number') || (typeof b !== 'bigint' && typeof b !== 'number')) return undefined;
  const x = Number(a);
  const y = Number(b);
  return op === 'add' ? x + y : op === 'sub' ? x - y : op === 'mul' ? x * y : x / y;
}

const INT64_MAX = (1n << 63n) - 1n;
