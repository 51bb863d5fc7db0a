import { assertNever } from '../../common/assert.js';
import type { PropertyValue } from '../../common/property-value.js';
import type { GraphOp, PropertyDefinitionSpec } from '../../log/events.js';
import type { GraphStore, Refusal } from '../graph/graph-store.js';
import type { Catalog } from './catalog.js';
import { typeText, valueHasType } from './value-types.js';

/**
 * Where a map may be stored (docs/values.md): a map value, or a list holding one, only in a property
 * that a label of its node (or its edge's type) declares with a type that holds it: MAP, DOCUMENT,
 * GEO, or a list of those. Elsewhere no schema says what the map is; Cypher refuses to store one,
 * and GraphService, which takes maps over the wire for such properties, is held to the same rule
 * here. Checked at propose and at apply, from the entry and the catalog alone, whatever the label's
 * schema mode.
 */
export function checkMapValues(ops: readonly GraphOp[], graph: GraphStore, catalog: Catalog): Refusal | undefined {
  for (const op of ops) {
    switch (op.op) {
      case 'create_node': {
        const bad = checkEntries(op.props, () => nodeDefinitions(op.labels, catalog), { node_id: String(op.id) });
        if (bad !== undefined) return bad;
        break;
      }
      case 'update_node': {
        const labels = () => {
          const before = graph.nodeRecord(op.id)?.head.labels ?? [];
          return [...before.filter((l) => !op.remove_labels.includes(l)), ...op.add_labels];
        };
        const bad = checkEntries(op.set, () => nodeDefinitions(labels(), catalog), { node_id: String(op.id) });
        if (bad !== undefined) return bad;
        break;
      }
      case 'create_edge': {
        const bad = checkEntries(op.props, () => catalog.edgeTypes.get(op.type)?.properties ?? [], { edge_id: String(op.id) });
        if (bad !== undefined) return bad;
        break;
      }
      case 'update_edge': {
        const type = () => graph.edgeRecord(op.id)?.type ?? '';
        const bad = checkEntries(op.set, () => catalog.edgeTypes.get(type())?.properties ?? [], { edge_id: String(op.id) });
        if (bad !== undefined) return bad;
        break;
      }
      case 'delete_node':
      case 'delete_edge':
        break;
      default:
        return assertNever(op, 'graph op');
    }
  }
  return undefined;
}

function nodeDefinitions(labels: readonly string[], catalog: Catalog): PropertyDefinitionSpec[] {
  return labels.flatMap((l) => catalog.labels.get(l)?.properties ?? []);
}

/** The definitions are looked up only when a value holds a map: most writes hold none. */
function checkEntries(
  entries: readonly (readonly [string, PropertyValue | null])[],
  definitions: () => readonly PropertyDefinitionSpec[],
  metadata: Record<string, string>,
): Refusal | undefined {
  for (const [key, value] of entries) {
    if (value === null || !holdsMap(value)) continue;
    const declared = definitions().filter((p) => p.name === key);
    if (declared.some((p) => valueHasType(value, p.type))) continue;
    const which = declared.length === 0 ? 'no label or type declares it' : `it is declared ${declared.map((p) => typeText(p.type)).join(', ')}`;
    return {
      code: 'INVALID_ARGUMENT',
      reason: 'INVALID_PROPERTY_VALUE',
      message: `${key}: a map is stored only in a property declared MAP, DOCUMENT or GEO; ${which}`,
      metadata: { ...metadata, property: key },
    };
  }
  return undefined;
}

function holdsMap(value: PropertyValue): boolean {
  return value instanceof Map || (Array.isArray(value) && (value as readonly unknown[]).some((v) => v instanceof Map));
}
