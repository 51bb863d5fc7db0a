import type { BoundExpression } from '../bind/bound-expression.js';
import { conjuncts, freeSlots, UNMOVABLE } from '../plan/expressions.js';
import { transformUp, type LogicalOp } from '../plan/logical.js';

/**
 * A filter right above a label scan holding `text_match(n.key, q)` (a conjunct, `q` not reading `n`)
 * marks it on the scan, so that at run time a text index of the label and key gives the scan the
 * nodes whose text matches instead of the whole label. The filter keeps the predicate and checks it
 * on every row against the version the reader sees. Runs beside seekable-scan: both only mark.
 */
export function textSearch(plan: LogicalOp): LogicalOp {
  return transformUp(plan, (op) => {
    if (op.op !== 'filter' || op.input.op !== 'node_scan') return op;
    const scan = op.input;
    if (scan.label === undefined || scan.text !== undefined) return op;
    for (const c of conjuncts(op.predicate)) {
      const text = textMatchOf(c, scan.variable);
      if (text !== undefined) return { ...op, input: { ...scan, text } };
    }
    return op;
  });
}

function textMatchOf(e: BoundExpression, slot: number): { key: string; query: BoundExpression } | undefined {
  if (e.kind !== 'function' || e.name !== 'text_match' || e.args.length !== 2) return undefined;
  const [a, q] = e.args as [BoundExpression, BoundExpression];
  if (a.kind !== 'property' || a.object.kind !== 'variable' || a.object.variable.id !== slot) return undefined;
  const s = freeSlots(q);
  return s.has(slot) || s.has(UNMOVABLE) ? undefined : { key: a.key, query: q };
}
