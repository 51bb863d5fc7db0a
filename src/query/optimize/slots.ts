import { assertNever } from '../../common/assert.js';
import { inputsOf, type LogicalOp } from '../plan/logical.js';

/**
 * Which slots hold values at the output of an operator. A plan's argument row holds the slots no
 * operator of the plan writes (the enclosing row of a pattern predicate, an OPTIONAL MATCH's input),
 * so `outer` is passed down from the root.
 */

/** Slots an operator itself writes. */
export function ownSlots(op: LogicalOp): readonly number[] {
  switch (op.op) {
    case 'node_scan':
    case 'node_by_id':
    case 'unwind':
    case 'path':
      return [op.variable];
    case 'expand':
      return [op.rel, op.to];
    case 'repeat':
      return [op.rel, op.to, ...op.groups.map((g) => g.group)];
    case 'select_paths':
      return op.slots;
    case 'search_paths':
      return op.parts.flatMap((p) => [p.rel, p.to, ...p.groups.map((g) => g.group)]);
    case 'project':
      return op.items.map((i) => i.variable);
    case 'aggregate':
      return [...op.aggregation.keys.map((k) => k.variable.id), ...op.aggregation.aggregates.map((a) => a.variable.id)];
    case 'optional':
      return op.nulls;
    case 'subquery':
      return op.batch?.report === undefined ? op.columns : [...op.columns, op.batch.report];
    case 'call':
      return op.yields.map((y) => y.variable.id);
    case 'create':
    case 'merge': {
      const paths = op.op === 'create' ? op.pattern : [op.path];
      const out: number[] = [];
      for (const p of paths) {
        for (const n of p.nodes) out.push(n.variable.id);
        for (const r of p.relationships) out.push(r.variable.id);
        if (p.variable) out.push(p.variable.id);
      }
      return out;
    }
    case 'load_csv':
      return [op.variable, op.line, op.file];
    case 'hash_join':
    case 'value_hash_join':
      return op.right_slots;
    case 'union':
      return op.part_columns[0] ?? [];
    case 'argument':
    case 'vector_search':
    case 'filter':
    case 'rel_unique':
    case 'distinct':
    case 'sort':
    case 'top':
    case 'skip':
    case 'limit':
    case 'eager':
    case 'set':
    case 'remove':
    case 'delete':
    case 'discard':
    case 'produce':
      return [];
    default:
      return assertNever(op, 'logical operator');
  }
}

/** Slots bound at the output of `op`, given the slots `outer` its argument row holds. */
export function boundAt(op: LogicalOp, outer: ReadonlySet<number>): Set<number> {
  const out = new Set(outer);
  const visit = (o: LogicalOp): void => {
    switch (o.op) {
      case 'optional':
      case 'subquery':
      case 'repeat':
      case 'select_paths':
        // The inner plan's own slots stay inside it (a repeat's singletons); select_paths lists what it copies out.
        visit(o.input);
        break;
      case 'merge':
        visit(o.input);
        break;
      case 'union':
        break;
      case 'aggregate':
        // Only the grouping keys and aggregates survive (and the argument's slots).
        break;
      default:
        for (const i of inputsOf(o)) visit(i);
    }
    for (const s of ownSlots(o)) out.add(s);
  };
  visit(op);
  return out;
}
