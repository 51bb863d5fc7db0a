import { assertNever } from '../../common/assert.js';
import type { SchemaEvent } from '../../log/events.js';
import type { GraphStore, Refusal } from '../graph/graph-store.js';
import { visibleNode } from '../graph/records.js';
import type { Catalog } from './catalog.js';
import { checkConstraintCreated, checkIndexAdmission } from './constraint-rules.js';
import { isFinalBuild, isFinalCheck, type BuildRecord } from './types.js';
import { checkDefinition, checkSearchSpec, exists, invalid } from './validate.js';

/**
 * Whether a schema event may apply to the catalog as it stands (SPEC 4.3 and 7). Admission asks
 * before proposing and apply asks again, so a refused event changes nothing on any member.
 */
export function checkSchemaEvent(event: SchemaEvent, c: Catalog, graph: GraphStore): Refusal | undefined {
  switch (event.kind) {
    case 'label_defined':
    case 'edge_type_defined':
      return checkDefinition(event, c);
    case 'constraint_created':
      return checkConstraintCreated(event, c, graph);
    case 'constraint_dropped':
      return c.constraints.has(event.name) ? undefined : missing(`constraint ${event.name} does not exist`, { constraint: event.name });
    case 'index_created': {
      const bad = checkIndexAdmission(event.index, c);
      if (bad !== undefined) return bad;
      if (event.properties.length === 0) return invalid('an index takes one or more properties');
      if (event.search !== undefined) {
        const wrong = checkSearchSpec(event.search, event.properties);
        if (wrong !== undefined) return wrong;
      }
      const same = c
        .indexesOfLabel(event.label)
        .find((i) => i.owner === undefined && i.search?.kind === event.search?.kind && sameList(i.properties, event.properties));
      return same === undefined ? undefined : exists(`index ${same.name} already covers ${event.label}(${event.properties.join(', ')})`, 'INDEX_EXISTS', { index: same.name });
    }
    case 'index_dropped': {
      const index = c.indexByName(event.name);
      if (index === undefined) return missing(`index ${event.name} does not exist`, { index: event.name });
      if (index.owner !== undefined) {
        return { code: 'FAILED_PRECONDITION', reason: 'INDEX_OWNED', message: `index ${event.name} belongs to constraint ${index.owner}; drop the constraint`, metadata: { index: event.name, constraint: index.owner } };
      }
      return undefined;
    }
    case 'index_rebuild_admitted': {
      const index = c.indexes.get(event.index_id);
      if (index === undefined) return missing(`index ${event.index_id} does not exist`, { index_id: String(event.index_id) });
      if (index.serving === undefined || index.filling !== undefined) {
        return { code: 'FAILED_PRECONDITION', reason: 'INDEX_NOT_READY', message: `index ${index.name} is being built; wait for its build`, metadata: { index: index.name } };
      }
      return event.operation < c.nextOperation ? { code: 'ABORTED', reason: 'STALE_ADMISSION', message: 'operation already used', metadata: {} } : undefined;
    }
    case 'index_build_progress':
    case 'index_build_published':
    case 'index_build_failed':
    case 'index_build_cancelled':
      return openBuild(c, event.operation).refusal;
    case 'index_build_repair': {
      const { refusal } = openBuild(c, event.operation);
      if (refusal !== undefined) return refusal;
      const r = graph.nodeRecord(event.node_id);
      const v = r === undefined ? undefined : visibleNode(r, Number.POSITIVE_INFINITY);
      if (v?.props.get(event.property) !== event.old_value) {
        return { code: 'ABORTED', reason: 'REPAIR_STALE', message: `node ${event.node_id} no longer holds ${event.property} = ${event.old_value}`, metadata: {} };
      }
      return undefined;
    }
    case 'index_check_admitted': {
      const index = c.indexes.get(event.index_id);
      if (index?.serving !== event.operation) return missing(`index ${event.index_id} has no ready generation ${event.operation}`, {});
      const running = c.checks.get(event.operation);
      return running !== undefined && !isFinalCheck(running.state) ? exists('a check of this generation is running', 'CHECK_RUNNING', {}) : undefined;
    }
    case 'index_check_progress':
    case 'index_check_repair':
    case 'index_check_finished': {
      const check = c.checks.get(event.operation);
      if (check === undefined || isFinalCheck(check.state)) return settled(`check ${event.operation} has an outcome already`);
      return undefined;
    }
    default:
      return assertNever(event, 'schema event');
  }
}

function openBuild(c: Catalog, operation: number): { build?: BuildRecord; refusal?: Refusal } {
  const b = c.builds.get(operation);
  if (b === undefined) return { refusal: missing(`index build ${operation} does not exist`, { operation: String(operation) }) };
  if (isFinalBuild(b.state)) return { refusal: settled(`index build ${operation} is ${b.state} already`) };
  return { build: b };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function missing(message: string, metadata: Record<string, string>): Refusal {
  return { code: 'NOT_FOUND', reason: '', message, metadata };
}

function settled(message: string): Refusal {
  return { code: 'FAILED_PRECONDITION', reason: 'OPERATION_FINISHED', message, metadata: {} };
}
