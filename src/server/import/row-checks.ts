import type { PropertyValue } from '../../common/property-value.js';
import { encodeState } from '../../log/codec.js';
import type { GraphOp, PropertyEntries } from '../../log/events.js';
import { checkSchemaWrite, withDefaults } from '../../projections/catalog/enforce.js';
import type { StateMachine } from '../../projections/state-machine.js';

/**
 * The catalog's rules for imported rows (docs/schema.md): declared labels' schema modes, required
 * properties, types and defaults, and constraints. A row is checked as a write of its own against the
 * database as it was before the import (the same checks apply runs for any write), and uniqueness
 * among the imported rows themselves is tracked here, one set of keys per constraint. A row that
 * fails is a bad row; the import goes on without it.
 */
export type RowCheck = { readonly ok: true; readonly props: PropertyEntries } | { readonly ok: false; readonly reason: string };

export class RowChecks {
  /** Keys taken by imported rows, per UNIQUE or NODE_KEY constraint name. */
  private readonly taken = new Map<string, Set<string>>();

  constructor(private readonly sm: StateMachine) {}

  /** Whether any rule may concern a node with these labels: rows without such labels skip the checks. */
  governsNode(labels: readonly string[]): boolean {
    const catalog = this.sm.schema.catalog;
    if (catalog.labels.size === 0 && catalog.constraints.size === 0) return false;
    return labels.some((l) => catalog.labels.has(l) || catalog.constraintsOfLabel(l).length > 0);
  }

  governsEdge(type: string): boolean {
    return this.sm.schema.catalog.edgeTypes.has(type);
  }

  /** Checks a node row; answers its properties with declared defaults filled in. */
  node(id: number, labels: readonly string[], props: PropertyEntries): RowCheck {
    const catalog = this.sm.schema.catalog;
    const ops = withDefaults([{ op: 'create_node', id, labels, props }], catalog);
    const refusal = checkSchemaWrite(ops, this.sm.graph, catalog, this.sm.schema.indexes);
    if (refusal !== undefined) return { ok: false, reason: `${refusal.reason}: ${refusal.message}` };
    const op = ops[0] as Extract<GraphOp, { op: 'create_node' }>;
    const values = new Map<string, PropertyValue>(op.props);
    const claims: [Set<string>, string][] = [];
    for (const label of labels) {
      for (const c of catalog.constraintsOfLabel(label)) {
        if (c.constraint !== 'UNIQUE' && c.constraint !== 'NODE_KEY') continue;
        const key = c.properties.map((p) => values.get(p));
        if (key.some((v) => v === undefined)) continue;
        let set = this.taken.get(c.name);
        if (set === undefined) this.taken.set(c.name, (set = new Set()));
        const text = Buffer.from(encodeState(key)).toString('latin1');
        if (set.has(text)) {
          const reason = c.constraint === 'NODE_KEY' ? 'NODE_KEY_VIOLATION' : 'UNIQUE_VIOLATION';
          return { ok: false, reason: `${reason}: constraint ${c.name}: an earlier imported row of label ${c.label} holds the same ${c.properties.join(', ')}` };
        }
        claims.push([set, text]);
      }
    }
    for (const [set, text] of claims) set.add(text);
    return { ok: true, props: op.props };
  }

  /** Checks an edge row of a declared type (its properties' types and requiredness). */
  edge(id: number, type: string, source: number, target: number, props: PropertyEntries): RowCheck {
    const refusal = checkSchemaWrite([{ op: 'create_edge', id, type, source, target, props }], this.sm.graph, this.sm.schema.catalog, this.sm.schema.indexes);
    return refusal === undefined ? { ok: true, props } : { ok: false, reason: `${refusal.reason}: ${refusal.message}` };
  }
}
