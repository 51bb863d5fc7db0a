import { assertNever } from '../../common/assert.js';
import type { ConstraintScopeSpec, PropertyTypeSpec } from '../../log/events.js';
import type { BoundConstraintScope, BoundPropertyType, BoundStatement } from '../../query/bind/bound-statement.js';
import type { Prepared, QueryResult } from '../../query/engine.js';
import { zeroStats } from '../../query/execute/context.js';
import type { CypherCall } from '../../api/query-service.js';
import type { SchemaAdmin } from './schema-admin.js';

/**
 * Cypher DDL (docs/cypher.md 3.4, 3.5) through the one schema admission the SchemaService uses
 * (SPEC 4.3 rule 1): a constraint made by either route is the same object for both.
 *
 *   CREATE CONSTRAINT ...           -> CreateConstraint (waits index_build_statement_wait_secs)
 *   DROP CONSTRAINT name [IF EXISTS]-> DropConstraint
 *   CREATE INDEX ...                -> a free-standing B-tree index and its build
 *   CREATE UNIQUE INDEX name ... WHERE -> a UNIQUE constraint named `name` whose backing index is `name`
 *   DROP INDEX name [IF EXISTS]     -> drops the index, or the constraint a UNIQUE INDEX statement made
 */
export async function admitSchemaStatement(admin: SchemaAdmin, statement: BoundStatement, signal?: AbortSignal): Promise<void> {
  switch (statement.kind) {
    case 'create_constraint':
      await admin.createConstraint(
        {
          name: statement.name ?? '',
          label: statement.label,
          constraint: statement.constraint,
          properties: statement.properties,
          ...(statement.property_type !== undefined ? { property_type: propertyType(statement.property_type) } : {}),
          ...(statement.scope !== undefined ? { scope: scope(statement.scope) } : {}),
          if_not_exists: statement.if_not_exists,
          on_duplicate_rename: '',
        },
        signal,
      );
      return;
    case 'create_index':
      if (statement.unique) {
        await admin.createConstraint(
          {
            name: statement.name ?? '',
            label: statement.label,
            constraint: 'UNIQUE',
            properties: statement.properties,
            ...(statement.scope !== undefined ? { scope: scope(statement.scope) } : {}),
            if_not_exists: statement.if_not_exists,
            on_duplicate_rename: '',
            ...(statement.name !== undefined ? { index_name: statement.name } : {}),
          },
          signal,
        );
        return;
      }
      await admin.createIndex(
        {
          name: statement.name ?? '',
          label: statement.label,
          properties: statement.properties,
          if_not_exists: statement.if_not_exists,
          ...(statement.search !== undefined ? { search: statement.search } : {}),
        },
        signal,
      );
      return;
    case 'drop_constraint':
      await admin.dropConstraint(statement.name, statement.if_exists);
      return;
    case 'drop_index': {
      const index = admin.db.sm.schema.catalog.indexByName(statement.name);
      if (index?.owner !== undefined && index.owner === statement.name) await admin.dropConstraint(statement.name, statement.if_exists);
      else await admin.dropIndex(statement.name, statement.if_exists);
      return;
    }
    case 'query':
    case 'session_set':
      throw new Error(`a ${statement.kind} statement is not a schema statement`);
    default:
      return assertNever(statement, 'statement');
  }
}

/** The CypherRunner's schema hook (`runner.handleSchemaWith(schemaStatementHandler(admin))`). */
export function schemaStatementHandler(admin: SchemaAdmin): (prepared: Prepared, call: CypherCall) => Promise<QueryResult> {
  return async (prepared, call) => {
    await admitSchemaStatement(admin, prepared.statement, call.signal);
    return { columns: [], rows: [], stats: zeroStats() };
  };
}

function propertyType(t: BoundPropertyType): PropertyTypeSpec {
  switch (t.kind) {
    case 'scalar':
      return { kind: 'scalar', scalar: t.scalar };
    case 'vector':
      return { kind: 'vector', dimensions: t.dimensions, metric: 'COSINE' };
    case 'array':
      return { kind: 'array', element: propertyType(t.element) };
    default:
      return assertNever(t, 'property type');
  }
}

function scope(s: BoundConstraintScope): ConstraintScopeSpec {
  return s.kind === 'present' ? { property: s.property, test: 'present' } : { property: s.property, test: 'equals', value: s.value };
}
