import { assertNever } from '../../common/assert.js';
import type { BoundPath, BoundRemoveItem, BoundSetItem } from '../bind/bound-clause.js';
import type { BoundExpression } from '../bind/bound-expression.js';
import { freeSlots, UNMOVABLE } from '../plan/expressions.js';
import { inputsOf, transformUp, type LogicalOp } from '../plan/logical.js';

/**
 * Scans and expands write a reference per row into their slots; when no operator ever reads a slot
 * (`MATCH (a)-[:KNOWS]->(b) RETURN count(*)` reads neither the relationship nor b), the write and its
 * allocation are skipped; a value join copies only the right slots something reads. It runs after every
 * other pass, since it needs the final set of readers.
 * A plan holding an EXISTS query body is left alone: the body's reads of the enclosing row are not
 * listed in its expression. A nested plan whose rows someone else reads (a pattern comprehension's
 * projection) names those slots in `readOutside`.
 */
export function unusedSlots(plan: LogicalOp, readOutside: ReadonlySet<number> = new Set()): LogicalOp {
  const read = readSlots(plan);
  for (const s of readOutside) read.add(s);
  if (read.has(UNMOVABLE)) return plan;
  return transformUp(plan, (op) => {
    if (op.op === 'node_scan' && !read.has(op.variable)) return { ...op, variable_unused: true };
    if (op.op === 'repeat') {
      const unused = [op.rel, ...(op.into ? [] : [op.to]), ...op.groups.map((g) => g.group)].filter((s) => !read.has(s));
      return unused.length === 0 ? op : { ...op, unused };
    }
    // A join copies only the right slots something reads: an unread one is left unbound below it too.
    if (op.op === 'value_hash_join' && op.right_slots.some((s) => !read.has(s))) return { ...op, right_slots: op.right_slots.filter((s) => read.has(s)) };
    if (op.op === 'expand' && !op.rel_bound) {
      const relUnused = !read.has(op.rel);
      const toUnused = !op.into && !read.has(op.to);
      if (!relUnused && !toUnused) return op;
      return { ...op, ...(relUnused && { rel_unused: true as const }), ...(toUnused && { to_unused: true as const }) };
    }
    return op;
  });
}

/** Every slot some operator of the plan reads. */
export function readSlots(plan: LogicalOp): Set<number> {
  const out = new Set<number>();
  const expr = (e: BoundExpression | undefined): void => {
    if (e !== undefined) freeSlots(e, out);
  };
  const slots = (list: readonly number[]): void => {
    for (const s of list) out.add(s);
  };
  const path = (p: BoundPath): void => {
    for (const n of p.nodes) {
      out.add(n.variable.id);
      expr(n.properties);
    }
    for (const r of p.relationships) {
      out.add(r.variable.id);
      expr(r.properties);
      expr(r.dynamic_type);
    }
    for (const n of p.nodes) n.dynamic_labels?.forEach(expr);
  };
  const setItem = (i: BoundSetItem): void => {
    if (i.kind === 'set_property' || i.kind === 'set_dynamic_property') {
      expr(i.object);
      expr(i.value);
      if (i.kind === 'set_dynamic_property') expr(i.key);
    } else {
      out.add(i.variable.id);
      if (i.kind !== 'set_labels') expr(i.value);
      else i.dynamic?.forEach(expr);
    }
  };
  const removeItem = (i: BoundRemoveItem): void => {
    if (i.kind === 'remove_property') expr(i.object);
    else if (i.kind === 'remove_dynamic_property') {
      expr(i.object);
      expr(i.key);
    } else {
      out.add(i.variable.id);
      i.dynamic?.forEach(expr);
    }
  };
  const visit = (op: LogicalOp): void => {
    switch (op.op) {
      case 'argument':
      case 'optional':
      case 'discard':
        break;
      case 'node_scan':
        for (const p of op.props) expr(p.value);
        break;
      case 'node_by_id':
        expr(op.ids);
        break;
      case 'expand':
        out.add(op.from);
        if (op.into) out.add(op.to);
        if (op.rel_bound) out.add(op.rel);
        slots(op.unique_from);
        expr(op.rel_props);
        break;
      case 'filter':
        expr(op.predicate);
        break;
      case 'repeat':
        slots([op.from, op.to, op.entry, op.exit, ...op.inner_rels, ...op.unique_from, ...op.groups.map((g) => g.inner)]);
        expr(op.select?.count);
        expr(op.select?.accept);
        break;
      case 'select_paths':
        slots([op.start, op.end, ...op.rels, ...op.slots]);
        expr(op.count);
        break;
      case 'search_paths':
        // The parts' plans and the accept plan read the enclosing row too: what they read is read here.
        slots([op.from, op.to]);
        expr(op.count);
        for (const p of op.parts) {
          for (const s of readSlots(p.inner)) out.add(s);
          slots([p.entry, p.exit, p.rel, p.to, ...p.inner_rels, ...p.groups.map((g) => g.inner)]);
          expr(p.exit_test);
        }
        if (op.accept !== undefined) for (const s of readSlots(op.accept)) out.add(s);
        break;
      case 'rel_unique':
      case 'distinct':
        slots(op.slots);
        break;
      case 'hash_join':
        slots(op.keys);
        slots(op.right_slots);
        break;
      case 'value_hash_join':
        // The join copies its right slots onto the left row; it reads none of them but through its keys.
        op.left_keys.forEach(expr);
        op.right_keys.forEach(expr);
        break;
      case 'path':
        slots(op.nodes);
        slots(op.rels);
        break;
      case 'project':
        for (const i of op.items) expr(i.expression);
        break;
      case 'aggregate':
        for (const k of op.aggregation.keys) expr(k.expression);
        for (const a of op.aggregation.aggregates) for (const x of a.call.args) expr(x);
        break;
      case 'sort':
        for (const k of op.keys) expr(k.expression);
        break;
      case 'top':
        for (const k of op.keys) expr(k.expression);
        expr(op.limit);
        expr(op.skip);
        break;
      case 'vector_search':
        slots([op.variable]);
        expr(op.query);
        expr(op.limit);
        expr(op.skip);
        expr(op.order);
        break;
      case 'skip':
      case 'limit':
        expr(op.count);
        break;
      case 'unwind':
        expr(op.expression);
        break;
      case 'load_csv':
        expr(op.url);
        break;
      case 'eager':
        slots(op.live);
        break;
      case 'create':
        op.pattern.forEach(path);
        break;
      case 'merge':
        path(op.path);
        op.on_create.forEach(setItem);
        op.on_match.forEach(setItem);
        break;
      case 'set':
        op.items.forEach(setItem);
        break;
      case 'remove':
        op.items.forEach(removeItem);
        break;
      case 'delete':
        op.expressions.forEach(expr);
        break;
      case 'call':
        op.args.forEach(expr);
        break;
      case 'union':
        for (const c of op.part_columns) slots(c);
        break;
      case 'subquery':
        slots(op.columns);
        break;
      case 'produce':
        slots(op.columns.map((c) => c.slot));
        break;
      default:
        assertNever(op, 'logical operator');
    }
    for (const i of inputsOf(op)) visit(i);
  };
  visit(plan);
  return out;
}
