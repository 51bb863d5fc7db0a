import type { Value } from '../../common/values/value.js';
import type { GraphReader } from '../../projections/graph/view.js';
import { string_type } from '../bind/static-type.js';
import type { Procedure, ProcedureLibrary } from './procedures.js';
import { show_procedures, showProceduresProcedure } from './show-procedures.js';
import { show_transactions_procedure, terminate_transactions_procedure } from './show-transactions.js';

/**
 * The schema procedures every Neo4j database answers, so the CALL examples of the Cypher manual run
 * as written: `db.labels()`, `db.relationshipTypes()` and `db.propertyKeys()`, each one STRING column,
 * one row per name in use now (a label some node has, a type some relationship has, a key some node or
 * relationship holds), in the order the names first appeared. They are not a procedure library
 * (SPEC 1): there is no way to add to them, and a procedure an embedder registers under one of these
 * names is the one called.
 */

function* inUse(names: Iterable<string>, members: (name: string) => Iterable<unknown>): Iterable<readonly Value[]> {
  for (const name of names) {
    for (const _ of members(name)) {
      yield [name];
      break;
    }
  }
}

/** Answered from the graph's catalog of property keys (GraphReader.propertyKeyCounts), not by a walk. */
function* propertyKeys(graph: GraphReader): Iterable<readonly Value[]> {
  for (const [key, holders] of graph.propertyKeyCounts()) if (holders > 0) yield [key];
}

const builtins: readonly Procedure[] = [
  {
    name: 'db.labels',
    inputs: [],
    outputs: [{ name: 'label', type: string_type }],
    call: (_args, { graph }) => inUse(graph.labelNames(), (l) => graph.nodesWithLabel(l)),
  },
  {
    name: 'db.relationshipTypes',
    inputs: [],
    outputs: [{ name: 'relationshipType', type: string_type }],
    call: (_args, { graph }) => inUse(graph.edgeTypeNames(), (t) => graph.edgesOfType(t)),
  },
  {
    name: 'db.propertyKeys',
    inputs: [],
    outputs: [{ name: 'propertyKey', type: string_type }],
    call: (_args, { graph }) => propertyKeys(graph),
  },
];

const by_name: ReadonlyMap<string, Procedure> = new Map(
  [...builtins, ...show_procedures, show_transactions_procedure, terminate_transactions_procedure, showProceduresProcedure(() => builtins)].map((p) => [p.name, p]),
);

/** `library` with the built-in procedures behind it: a name the library knows is its own. */
export function withBuiltinProcedures(library: ProcedureLibrary): ProcedureLibrary {
  return {
    lookup: (name) => library.lookup(name) ?? by_name.get(name),
    get version() {
      return library.version;
    },
  };
}
